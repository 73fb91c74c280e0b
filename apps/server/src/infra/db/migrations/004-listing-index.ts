import type { Kysely } from 'kysely';

/**
 * A folder listing is "children of P in state S, ordered by (created_at, id), one page": this
 * index answers it, and its first page, without sorting the whole folder.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('items_listing').on('items').columns(['parent_id', 'state', 'created_at', 'id']).execute();
  await db.schema.createIndex('items_top_level').on('items').columns(['owner_id', 'state', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_top_level').execute();
  await db.schema.dropIndex('items_listing').execute();
}
