import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * Sharing (docs/protocol.md "Sharing"). 001 made `accesses` and `links` already; this adds what
 * they lacked, additively (older instances neither read nor write these columns):
 * - accesses.sharer_id: who signed the grant (the recipient verifies the signature against their
 *   keys). Rows from before have none; the owner shared them.
 * - links.password_epoch: counts password changes. A link's access proofs name the epoch they
 *   were made for, so setting, changing or removing the password voids every proof at once.
 * - uploads.link_id: the link an upload was started through, so only a holder of that link
 *   (an anonymous visitor has no user id) may send its parts, resume, complete or abort it.
 * - accesses (user_id, created_at, item_id): "what was shared with me" in order, without a sort.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accesses')
    .addColumn('sharer_id', 'text', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .alterTable('links')
    .addColumn('password_epoch', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`password_epoch >= 0`))
    .execute();
  await db.schema.alterTable('uploads').addColumn('link_id', 'text').execute();
  await db.schema.createIndex('accesses_shared_with').on('accesses').columns(['user_id', 'created_at', 'item_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('accesses_shared_with').execute();
  await db.schema.alterTable('uploads').dropColumn('link_id').execute();
  await db.schema.alterTable('links').dropColumn('password_epoch').execute();
  await db.schema.alterTable('accesses').dropColumn('sharer_id').execute();
}
