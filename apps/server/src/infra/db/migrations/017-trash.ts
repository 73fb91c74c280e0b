import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * items.trashed_at and trashed_by (docs/protocol.md "Trash"): set on the item a delete moved to
 * its owner's trash (the root of what was deleted; everything under it goes along, hidden as the
 * root is), with who deleted it. Its parent and wrapped key stay, so a restore to where it was
 * needs no new key. Null for every item not in the trash, as for every row an older build writes;
 * an older build beside this one does not know the trash and lists a trashed item as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('items').addColumn('trashed_at', 'bigint').execute();
  await db.schema.alterTable('items').addColumn('trashed_by', 'text').execute();
  await db.schema.createIndex('items_trashed_at').on('items').column('trashed_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_trashed_at').execute();
  await db.schema.alterTable('items').dropColumn('trashed_by').execute();
  await db.schema.alterTable('items').dropColumn('trashed_at').execute();
}
