import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * account_recovery (docs/protocol.md "Recovery phrase"): one row per account that made a
 * recovery phrase: the bundle sealed under the phrase's recoveryWrap (opaque to the server), its
 * nonce, and the SHA-256 of recoveryAuth (which proves the phrase without revealing it). A new
 * table, so an older build beside this one neither reads nor writes it; an account deleted by any
 * build takes its row with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_recovery')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('auth_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_recovery').execute();
}
