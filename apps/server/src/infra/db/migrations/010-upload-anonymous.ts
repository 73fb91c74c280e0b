import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * uploads.anonymous: 1 when the upload was started by an anonymous link holder, 0 otherwise. An
 * anonymous holder is recorded under the owner's user id (the owner handed out the link), so
 * without this flag their uploads and those a signed-in user started through the same link
 * could not be told apart, and any holder of the link could finish or abort a signed-in user's.
 * Nullable and without a default: older builds running beside this one insert rows without it,
 * and NULL then means "not known", for which the server keeps the rule from before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('anonymous', 'integer', (c) => c.check(sql`anonymous in (0, 1)`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('anonymous').execute();
}
