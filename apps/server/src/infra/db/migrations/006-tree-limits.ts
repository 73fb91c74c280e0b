import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * Limits on one owner's tree (docs/protocol.md "Files and uploads"):
 * - users.item_count keeps the owner's item count, so the cap is checked in O(1) under the
 *   owner's lock instead of counting rows on every create; existing rows are backfilled.
 * - items.deleting_since marks the folder of a delete still in progress: it and everything
 *   under it are invisible while batches remove them, and the sweep finds it after a crash.
 *   A column, not a third state: SQLite cannot change the CHECK on items.state in place.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('item_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.updateTable('users').set({ item_count: sql`(select count(*) from items where items.owner_id = users.id)` }).execute();
  await db.schema.alterTable('items').addColumn('deleting_since', 'bigint').execute();
  await db.schema
    .createIndex('items_deleting')
    .on('items')
    .column('deleting_since')
    .where(sql.ref('deleting_since'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_deleting').execute();
  await db.schema.alterTable('items').dropColumn('deleting_since').execute();
  await db.schema.alterTable('users').dropColumn('item_count').execute();
}
