import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * File versions (docs/protocol.md "Versions"). An upload over a file keeps the content it replaces
 * as a row of item_versions (its size, fileNonce and sealed mime type, who uploaded it, when it was
 * made and when it stopped being the newest) whose ciphertext stays in the same blobs, now named by
 * item_version_parts. uploads.version_of marks an upload that becomes a new version of that item
 * when it completes. Only new tables and a nullable column: a build beside this one that does not
 * know versions leaves them alone. Its delete of a file that has versions is refused by the foreign
 * key rather than leaving their blobs and bytes behind.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('item_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('file_nonce', 'text', (c) => c.notNull())
    .addColumn('encrypted_mime_type', 'text')
    .addColumn('mime_type_nonce', 'text')
    // Null for an anonymous link holder.
    .addColumn('uploader_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('replaced_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('item_versions_size_non_negative', sql`size >= 0`)
    .execute();
  await db.schema.createIndex('item_versions_item_id').on('item_versions').column('item_id').execute();
  await db.schema.createIndex('item_versions_replaced_at').on('item_versions').column('replaced_at').execute();

  // No cascade, as for item_parts: the rows name blobs the domain deletes once they are gone.
  await db.schema
    .createTable('item_version_parts')
    .addColumn('version_id', 'text', (c) => c.notNull().references('item_versions.id'))
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_version_parts_pk', ['version_id', 'n'])
    .addCheckConstraint('item_version_parts_size_positive', sql`size > 0`)
    .execute();

  await db.schema.alterTable('uploads').addColumn('version_of', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('version_of').execute();
  await db.schema.dropTable('item_version_parts').execute();
  await db.schema.dropIndex('item_versions_replaced_at').execute();
  await db.schema.dropIndex('item_versions_item_id').execute();
  await db.schema.dropTable('item_versions').execute();
}
