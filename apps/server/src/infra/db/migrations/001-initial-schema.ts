import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>: a migration is frozen in time and must not follow later schema types.
// Only types both dialects share: text, integer, bigint. See ports/db-schema.ts for why.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('login_verifier', 'text', (c) => c.notNull())
    .addColumn('password_salt', 'text', (c) => c.notNull())
    .addColumn('kdf_params', 'text', (c) => c.notNull())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('iv', 'text', (c) => c.notNull())
    .addColumn('encrypted_private_key', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('signing_public_key', 'text', (c) => c.notNull())
    .addColumn('grid_view', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', 'text', (c) => c.notNull().defaultTo('name-asc'))
    .addColumn('avatar_extension', 'text')
    .addColumn('used_space', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_space', 'bigint', (c) => c.notNull())
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('totp_last_used_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('users_used_space_non_negative', sql`used_space >= 0`)
    .execute();
  // Usernames and emails are unique regardless of case: "Alice" must not shadow "alice".
  await db.schema.createIndex('users_username_ci_unique').on('users').unique().expression(sql`lower(username)`).execute();
  await db.schema.createIndex('users_email_ci_unique').on('users').unique().expression(sql`lower(email)`).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('totp_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  // No cascade from a folder to its children: deleting a tree must release quota and blobs,
  // which the domain does explicitly, so the database refuses to orphan rows behind its back.
  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text', (c) => c.references('items.id'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('uploader_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('is_directory', 'integer', (c) => c.notNull())
    .addColumn('encrypted_file_name', 'text', (c) => c.notNull())
    .addColumn('name_nonce', 'text', (c) => c.notNull())
    .addColumn('encrypted_mime_type', 'text')
    .addColumn('mime_type_nonce', 'text')
    .addColumn('encrypted_key', 'text', (c) => c.notNull())
    .addColumn('key_nonce', 'text')
    .addColumn('file_nonce', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('blob_key', 'text', (c) => c.unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('items_state_known', sql`state in ('uploading', 'ready')`)
    .addCheckConstraint('items_size_non_negative', sql`size >= 0`)
    .execute();
  await db.schema.createIndex('items_parent_id').on('items').column('parent_id').execute();
  await db.schema.createIndex('items_owner_id_parent_id').on('items').columns(['owner_id', 'parent_id']).execute();

  await db.schema
    .createTable('accesses')
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('encrypted_key', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('edit_permission', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('accesses_pk', ['item_id', 'user_id'])
    .execute();
  await db.schema.createIndex('accesses_user_id').on('accesses').column('user_id').execute();

  await db.schema
    .createTable('links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('edit_permission', 'integer', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('links_item_id').on('links').column('item_id').execute();

  await createProvisionalUploads(db);
}

/** The provisional uploads table (one blob per upload); 003-files replaces it and restores it on the way down. */
export async function createProvisionalUploads(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('expected_size', 'bigint', (c) => c.notNull())
    .addColumn('part_size', 'bigint', (c) => c.notNull())
    .addColumn('received_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('parts_received', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_item_id').on('uploads').column('item_id').execute();
  await db.schema.createIndex('uploads_user_id').on('uploads').column('user_id').execute();
  await db.schema.createIndex('uploads_expires_at').on('uploads').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['uploads', 'links', 'accesses', 'items', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
