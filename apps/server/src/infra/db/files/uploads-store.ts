import type { Kysely, Selectable } from 'kysely';
import type { Database, SqlDialect } from '../../../ports/db.ts';
import type { UploadsTable } from '../../../ports/db-schema.ts';
import type { UploadRecord, UploadsReader, UploadsSweep, UploadsWriter } from '../../../ports/files/uploads.ts';
import { inChunks } from './in-chunks.ts';
import { itemsReader } from './items-store.ts';

export function uploadsReader(k: Kysely<Database>): UploadsReader {
  /** The uploads in an owner's tree: their items are the owner's. */
  const inTreeOf = (ownerId: string) =>
    k.selectFrom('uploads').innerJoin('items', 'items.id', 'uploads.item_id').where('items.owner_id', '=', ownerId);
  return {
    async upload(id) {
      const row = await k.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUpload(row);
    },
    async unfinishedBytes(by) {
      const row =
        'linkId' in by
          ? await k
              .selectFrom('uploads')
              .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
              .where('link_id', '=', by.linkId)
              .executeTakeFirst()
          : await inTreeOf(by.ownerId)
              .select((eb) => eb.fn.sum<number | string | null>('uploads.size').as('total'))
              .where('uploads.user_id', '=', by.uploaderId)
              // An anonymous holder's row names the owner, never this uploader; said for clarity.
              .where((eb) => eb.or([eb('uploads.anonymous', 'is', null), eb('uploads.anonymous', '=', 0)]))
              .executeTakeFirst();
      return Number(row?.total ?? 0);
    },
    async uploadsVia(linkId) {
      return (await k.selectFrom('uploads').selectAll().where('link_id', '=', linkId).execute()).map(toUpload);
    },
    async uploadsBy(uploaderId, ownerId) {
      const rows = await inTreeOf(ownerId)
        .selectAll('uploads')
        .where('uploads.user_id', '=', uploaderId)
        .where('uploads.link_id', 'is', null)
        .execute();
      return rows.map(toUpload);
    },
    async unfinishedIn(ownerId, page) {
      const rows = await inTreeOf(ownerId)
        .selectAll('uploads')
        .orderBy('uploads.created_at', 'desc')
        .orderBy('uploads.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const items = new Map((await itemsReader(k).items(rows.map((row) => row.item_id))).map((item) => [item.id, item]));
      return rows.flatMap((row) => {
        const item = items.get(row.item_id);
        return item ? [{ upload: toUpload(row), item }] : [];
      });
    },
    async unfinishedCount(ownerId) {
      const row = await inTreeOf(ownerId)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}

export function uploadsWriter(k: Kysely<Database>, dialect: SqlDialect): UploadsWriter {
  return {
    async lockUpload(id) {
      let query = k.selectFrom('uploads').selectAll().where('id', '=', id);
      if (dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      return row && toUpload(row);
    },
    async insertUpload(upload) {
      await k
        .insertInto('uploads')
        .values({
          id: upload.id,
          item_id: upload.itemId,
          user_id: upload.userId,
          link_id: upload.linkId,
          anonymous: upload.anonymous === null ? null : upload.anonymous ? 1 : 0,
          size: upload.size,
          parts: upload.parts,
          reserved_remaining: upload.reservedRemaining,
          created_at: upload.createdAt,
          last_activity_at: upload.lastActivityAt,
          expires_at: upload.expiresAt,
          version_of: upload.versionOf ?? null,
        })
        .execute();
    },
    async updateUpload(id, changes) {
      const values: Record<string, number> = {};
      if (changes.reservedRemaining !== undefined) values.reserved_remaining = changes.reservedRemaining;
      if (changes.lastActivityAt !== undefined) values.last_activity_at = changes.lastActivityAt;
      if (changes.expiresAt !== undefined) values.expires_at = changes.expiresAt;
      if (Object.keys(values).length === 0) return;
      await k.updateTable('uploads').set(values).where('id', '=', id).execute();
    },
    async deleteUploads(itemIds) {
      const rows = await inChunks(itemIds, (chunk) =>
        k.deleteFrom('uploads').where('item_id', 'in', chunk).returningAll().execute(),
      );
      return rows.map(toUpload);
    },
  };
}

export function uploadsSweep(k: Kysely<Database>): UploadsSweep {
  return {
    async expiredUploads(now, limit) {
      const rows = await k
        .selectFrom('uploads')
        .selectAll()
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map(toUpload);
    },
  };
}

function toUpload(row: Selectable<UploadsTable>): UploadRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    userId: row.user_id,
    linkId: row.link_id ?? null,
    anonymous: row.anonymous === null ? null : row.anonymous === 1,
    size: Number(row.size),
    parts: Number(row.parts),
    reservedRemaining: Number(row.reserved_remaining),
    createdAt: Number(row.created_at),
    lastActivityAt: Number(row.last_activity_at),
    expiresAt: Number(row.expires_at),
    // Absent on an upload of a new item, as it was inserted (the record's shape before migration 018).
    ...(row.version_of ? { versionOf: row.version_of } : {}),
  };
}
