import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * totp_recovery_codes (docs/protocol.md "TOTP recovery codes"): an account's one-time codes, each
 * only as the SHA-256 of user id and code; a used code's row is deleted. A new table, so an older
 * build beside this one neither reads nor writes it (it neither offers nor accepts the codes); an
 * account deleted by any build takes its rows with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('totp_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('totp_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('totp_recovery_codes').execute();
}
