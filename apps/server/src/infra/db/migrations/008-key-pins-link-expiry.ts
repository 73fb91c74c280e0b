import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * Key pins (docs/protocol.md "Key pins"): one sealed blob per user, opaque to the server. Added
 * as a table of its own, so older instances neither read nor write it. No row means version 0
 * (nothing stored); every accepted write moves `version` on by one, and a write names the
 * version it read, so two devices cannot overwrite each other unseen.
 *
 * links (expires_at): the periodic sweep finds expired links without reading every link.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('key_pins')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('links_expires_at').on('links').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('links_expires_at').execute();
  await db.schema.dropTable('key_pins').execute();
}
