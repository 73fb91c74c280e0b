import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * users.deleted_at (docs/protocol.md "Deleting an account"): when the account was deleted. From
 * then on the row is a tombstone: nobody can sign in to it, find it or share with it, and its
 * secrets are blanked. It stays because items others own may name it as their uploader, and its
 * username stays reserved for the grace period, after which the sweep frees the name. Null for
 * every live account, as for every row an older build writes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'bigint').execute();
  await db.schema.createIndex('users_deleted_at').on('users').column('deleted_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_deleted_at').execute();
  await db.schema.alterTable('users').dropColumn('deleted_at').execute();
}
