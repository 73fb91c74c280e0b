import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { ItemVersionsTable } from '../../../ports/db-schema.ts';
import type { PartRecord } from '../../../ports/files/parts.ts';
import type { VersionRecord, VersionsReader, VersionsSweep, VersionsWriter } from '../../../ports/files/versions.ts';
import { inChunks } from './in-chunks.ts';

export function versionsReader(k: Kysely<Database>): VersionsReader {
  return {
    async versions(itemId) {
      const rows = await k
        .selectFrom('item_versions')
        .selectAll()
        .where('item_id', '=', itemId)
        .orderBy('created_at', 'desc')
        .orderBy('replaced_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toVersion);
    },
    async version(id) {
      const row = await k.selectFrom('item_versions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toVersion(row);
    },
    async versionParts(versionId) {
      const rows = await partsOf(k, [versionId]);
      return rows.sort((a, b) => a.n - b.n);
    },
  };
}

export function versionsWriter(k: Kysely<Database>): VersionsWriter {
  return {
    async insertVersion(version, parts) {
      await k
        .insertInto('item_versions')
        .values({
          id: version.id,
          item_id: version.itemId,
          size: version.size,
          file_nonce: version.fileNonce,
          encrypted_mime_type: version.encryptedMimeType,
          mime_type_nonce: version.mimeTypeNonce,
          uploader_id: version.uploaderId,
          created_at: version.createdAt,
          replaced_at: version.replacedAt,
        })
        .execute();
      if (parts.length === 0) return;
      await inChunks(parts, async (chunk) => {
        await k
          .insertInto('item_version_parts')
          .values(
            chunk.map((part) => ({
              version_id: version.id,
              n: part.n,
              size: part.size,
              blob_key: part.blobKey,
              created_at: part.createdAt,
            })),
          )
          .execute();
        return [];
      });
    },
    deleteVersions: (versionIds) => deleteWithParts(k, versionIds),
    async deleteVersionsOf(itemIds) {
      const rows = await inChunks(itemIds, (chunk) =>
        k.selectFrom('item_versions').select('id').where('item_id', 'in', chunk).execute(),
      );
      return deleteWithParts(
        k,
        rows.map((row) => row.id),
      );
    },
  };
}

export function versionsSweep(k: Kysely<Database>): VersionsSweep {
  return {
    async versionsReplacedBefore(before, limit) {
      const rows = await k
        .selectFrom('item_versions')
        .selectAll()
        .where('replaced_at', '<=', before)
        .orderBy('replaced_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toVersion);
    },
  };
}

/** The part rows of these versions, each as a PartRecord of the version's file. */
async function partsOf(k: Kysely<Database>, versionIds: readonly string[]): Promise<PartRecord[]> {
  const rows = await inChunks(versionIds, (chunk) =>
    k
      .selectFrom('item_version_parts')
      .innerJoin('item_versions', 'item_versions.id', 'item_version_parts.version_id')
      .select([
        'item_versions.item_id',
        'item_version_parts.n',
        'item_version_parts.size',
        'item_version_parts.blob_key',
        'item_version_parts.created_at',
      ])
      .where('item_version_parts.version_id', 'in', chunk)
      .execute(),
  );
  return rows.map((row) => ({
    itemId: row.item_id,
    n: Number(row.n),
    size: Number(row.size),
    blobKey: row.blob_key,
    createdAt: Number(row.created_at),
  }));
}

/**
 * Reads the parts, then deletes their rows and the versions'. Only the part rows this statement
 * deleted are returned, so of two transactions deleting one version only one frees its bytes.
 */
async function deleteWithParts(k: Kysely<Database>, versionIds: readonly string[]): Promise<PartRecord[]> {
  if (versionIds.length === 0) return [];
  const parts = await partsOf(k, versionIds);
  const deleted = new Set(
    (
      await inChunks(versionIds, (chunk) =>
        k.deleteFrom('item_version_parts').where('version_id', 'in', chunk).returning('blob_key').execute(),
      )
    ).map((row) => row.blob_key),
  );
  await inChunks(versionIds, (chunk) => k.deleteFrom('item_versions').where('id', 'in', chunk).returning('id').execute());
  return parts.filter((part) => deleted.has(part.blobKey));
}

function toVersion(row: Selectable<ItemVersionsTable>): VersionRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    size: Number(row.size),
    fileNonce: row.file_nonce,
    encryptedMimeType: row.encrypted_mime_type,
    mimeTypeNonce: row.mime_type_nonce,
    uploaderId: row.uploader_id,
    createdAt: Number(row.created_at),
    replacedAt: Number(row.replaced_at),
  };
}
