import { sql, type Kysely } from 'kysely';
import { createProvisionalUploads } from './001-initial-schema.ts';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * Files and uploads of docs/protocol.md "Files and uploads": a file's ciphertext is stored as
 * parts (one blob each), quota separates bytes stored (used_space) from bytes promised by
 * unfinished uploads (reserved_space), and an upload row tracks one unfinished file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('reserved_space', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`reserved_space >= 0`))
    .execute();

  // No cascade: deleting an item must also delete its blobs, which the domain does after the
  // rows are gone, so the database refuses to drop part rows (and their blob names) silently.
  await db.schema
    .createTable('item_parts')
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id'))
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_parts_pk', ['item_id', 'n'])
    .addCheckConstraint('item_parts_n_non_negative', sql`n >= 0`)
    .addCheckConstraint('item_parts_size_positive', sql`size > 0`)
    .execute();

  // 001's provisional uploads table (one blob per upload) never held rows in a release: the
  // part protocol replaces it. Dropped and created anew, which SQLite's ALTER could not do.
  await db.schema.dropTable('uploads').execute();
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull().unique().references('items.id'))
    // The uploader: only they may send parts, resume, complete or abort.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('parts', 'integer', (c) => c.notNull())
    // Bytes of the item owner's reserved_space this upload still holds.
    .addColumn('reserved_remaining', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('uploads_reserved_non_negative', sql`reserved_remaining >= 0`)
    .execute();
  await db.schema.createIndex('uploads_user_id').on('uploads').column('user_id').execute();
  await db.schema.createIndex('uploads_expires_at').on('uploads').column('expires_at').execute();
  await db.schema.createIndex('items_state').on('items').column('state').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_state').execute();
  await db.schema.dropTable('uploads').execute();
  await createProvisionalUploads(db);
  await db.schema.dropTable('item_parts').execute();
  await db.schema.alterTable('users').dropColumn('reserved_space').execute();
}
