import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * The top level of an account is "items of owner O with no parent, in state S, ordered by
 * (created_at, id)". items_top_level (004) holds every item of the owner, so its walk read the
 * whole account to find the few at the top: 126 ms on SQLite for an account of 100,000 items
 * (bench/big-account), on every visit to My Files. This index holds only top-level items. The old
 * one stays: an older build beside this one may rely on it, and dropping it waits for a release
 * that contracts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('items_top_level_only')
    .on('items')
    .columns(['owner_id', 'state', 'created_at', 'id'])
    .where(sql.ref('parent_id'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_top_level_only').execute();
}
