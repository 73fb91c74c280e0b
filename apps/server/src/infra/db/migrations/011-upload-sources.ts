import { sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * Who started an item, and through which access (docs/protocol.md "Uploads by others"):
 * - items.uploader_anonymous: 1 when an anonymous link holder created the item, 0 when a signed-in
 *   user did. Older builds recorded an anonymous holder as the owner (items.uploader_id is NOT
 *   NULL and they read it as a user id), so new builds still write the owner's id there and let
 *   this flag say that nobody known made it. Nullable and without a default: rows older builds
 *   insert during a roll leave it NULL, "not known", shown as before (the recorded user).
 * - uploads_link_id: the uploads started through one link, found at once when the link is
 *   deleted or switched to viewer (they end with it) and summed for its cap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('uploader_anonymous', 'integer', (c) => c.check(sql`uploader_anonymous in (0, 1)`))
    .execute();
  await db.schema.createIndex('uploads_link_id').on('uploads').column('link_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('uploads_link_id').execute();
  await db.schema.alterTable('items').dropColumn('uploader_anonymous').execute();
}
