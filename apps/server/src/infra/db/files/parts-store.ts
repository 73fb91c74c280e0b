import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { ItemPartsTable } from '../../../ports/db-schema.ts';
import type { PartRecord, PartsReader, PartsSweep, PartsWriter } from '../../../ports/files/parts.ts';
import { inChunks } from './in-chunks.ts';

export function partsReader(k: Kysely<Database>): PartsReader {
  return {
    async parts(itemId) {
      const rows = await k.selectFrom('item_parts').selectAll().where('item_id', '=', itemId).orderBy('n').execute();
      return rows.map(toPart);
    },
  };
}

export function partsWriter(k: Kysely<Database>): PartsWriter {
  return {
    async putPart(part) {
      const existing = await k
        .selectFrom('item_parts')
        .selectAll()
        .where('item_id', '=', part.itemId)
        .where('n', '=', part.n)
        .executeTakeFirst();
      if (existing) {
        await k
          .updateTable('item_parts')
          .set({ size: part.size, blob_key: part.blobKey, created_at: part.createdAt })
          .where('item_id', '=', part.itemId)
          .where('n', '=', part.n)
          .execute();
        return toPart(existing);
      }
      await k
        .insertInto('item_parts')
        .values({ item_id: part.itemId, n: part.n, size: part.size, blob_key: part.blobKey, created_at: part.createdAt })
        .execute();
      return undefined;
    },
    async deleteParts(itemIds) {
      const rows = await inChunks(itemIds, (chunk) =>
        k.deleteFrom('item_parts').where('item_id', 'in', chunk).returningAll().execute(),
      );
      return rows.map(toPart);
    },
    async moveParts(fromItemId, toItemId) {
      await k.updateTable('item_parts').set({ item_id: toItemId }).where('item_id', '=', fromItemId).execute();
    },
  };
}

export function partsSweep(k: Kysely<Database>): PartsSweep {
  return {
    async namedBlobKeys(keys) {
      // A version's blobs are as much in use as a file's (versions-store.ts).
      const rows = await inChunks(keys, (chunk) =>
        k
          .selectFrom('item_parts')
          .select('blob_key')
          .where('blob_key', 'in', chunk)
          .unionAll(k.selectFrom('item_version_parts').select('blob_key').where('blob_key', 'in', chunk))
          .execute(),
      );
      return new Set(rows.map((row) => row.blob_key));
    },
  };
}

function toPart(row: Selectable<ItemPartsTable>): PartRecord {
  return {
    itemId: row.item_id,
    n: Number(row.n),
    size: Number(row.size),
    blobKey: row.blob_key,
    createdAt: Number(row.created_at),
  };
}
