import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * share_blocks (docs/protocol.md "Blocked accounts"): the accounts a user does not want shares
 * from. Their shares are neither listed for the user nor announced to them. A new table only,
 * so an older build beside this one simply does not hide them during a roll.
 * The primary key (user_id, blocked_id) serves both lookups: a user's list, and whether a
 * recipient blocks an item's owner.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_blocks')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_blocks_pkey', ['user_id', 'blocked_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_blocks').execute();
}
