import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

export async function up(db: Kysely<any>): Promise<void> {
  // 001 stored the sort as one 'name-asc' value; the contract has sortBy and sortOrder apart.
  // SQLite cannot change a column default, so new rows always write sort_order explicitly.
  await db.schema
    .alterTable('users')
    .addColumn('sort_by', 'text', (c) => c.notNull().defaultTo('name'))
    .execute();
  await db.updateTable('users').set({ sort_order: 'asc' }).where('sort_order', 'not in', ['asc', 'desc']).execute();

  // Fixed-window counters shared by every instance. One row per limited subject (a SHA-256 of
  // the limit's name and the IP or account), reset in place when a new window starts.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_end').on('rate_limits').column('window_end').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.alterTable('users').dropColumn('sort_by').execute();
}
