import { PART_BYTES } from '@sealbox/crypto';
import type { FilesReader, FilesTransaction, ItemContent, ItemRecord, UploadRecord } from '../../ports/files.ts';
import { uploaderOf, type Principal } from './access.ts';
import { newPartKey } from './blob-keys.ts';
import { beginUpload, checkRoom, uploadSize, writableParent, type CreateResult, type IncomingFile } from './create.ts';
import type { FilesDeps } from './deps.ts';
import { audienceOf, itemEvent } from './events.ts';
import { countCreation } from './limits.ts';
import { checkQuota } from './quota.ts';
import { deleteBlobs, storeExactly } from './storage.ts';
import { checkUnfinishedRoom } from './unfinished.ts';
import type { VersionMetadata } from './validation.ts';
import { archiveContent, checkFreshNonce, trimVersions, writableFile } from './versions.ts';
import { dataLink } from './view.ts';

/**
 * POST /api/upload with `versionOf` (docs/protocol.md "Versions"): new content for an existing file,
 * sealed under its K with a fresh fileNonce. Sent whole, it becomes the newest at once; sent in
 * parts, its parts wait under an item of their own, invisible to everyone, until complete swaps
 * them in. Either way the content it replaces is kept as a version. Checks as a new file's upload,
 * the file taking the parent's place: visible (404), a file (400), editable (403).
 */
export async function uploadVersion(
  deps: FilesDeps,
  principal: Principal,
  meta: VersionMetadata,
  file: IncomingFile | undefined,
): Promise<CreateResult> {
  await countCreation(deps, principal);
  const { item: target } = await writableFile(deps.store, principal, meta.versionOf);
  const { size, parts } = uploadSize(deps, meta.size, file);
  // In parts, the parts wait under an item of their own, which must fit the item count too.
  if (file) checkQuota(await deps.quota.read(target.ownerId), size);
  else checkRoom(deps, await deps.quota.read(target.ownerId), size);
  await checkFreshNonce(deps.store, target, meta.fileNonce);
  const now = deps.clock();
  const content: ItemContent = {
    size,
    fileNonce: meta.fileNonce,
    // Without mime fields the file keeps its sealed mime type (no new encryption under K).
    encryptedMimeType: meta.encryptedMimeType ?? target.encryptedMimeType,
    mimeTypeNonce: meta.encryptedMimeType === null ? target.mimeTypeNonce : meta.mimeTypeNonce,
    uploaderId: uploaderOf(principal),
    modifiedAt: now,
  };

  if (!file) {
    await checkUnfinishedRoom(deps, deps.store, principal, target.ownerId, size);
    const uploadId = await deps.store.transaction(async (tx) => {
      checkRoom(deps, await deps.quota.lockOwner(tx, target.ownerId), size);
      const { item } = await writableFile(tx, principal, target.id);
      await checkUnfinishedRoom(deps, tx, principal, item.ownerId, size);
      // Where the parts wait: named and keyed as the file, beside it, never listed (state 'uploading').
      const waiting = { ...item, ...content, id: crypto.randomUUID(), state: 'uploading' as const, createdAt: now };
      delete waiting.trashedAt;
      delete waiting.trashedBy;
      return beginUpload(deps, tx, principal, waiting, parts, item.id);
    });
    return { id: target.id, size, uploadId, partBytes: PART_BYTES, parts };
  }

  const blobKey = newPartKey(now);
  await storeExactly(deps, blobKey, file.stream(), size);
  try {
    await deps.store.transaction(async (tx) => {
      // No new item: only the bytes must fit.
      checkQuota(await deps.quota.lockOwner(tx, target.ownerId), size);
      const { item, ancestors } = await writableFile(tx, principal, target.id);
      await checkFreshNonce(tx, item, meta.fileNonce);
      await archiveContent(tx, item, now);
      await tx.putPart({ itemId: item.id, n: 0, size, blobKey, createdAt: now });
      await deps.quota.chargeWholeFile(tx, item.ownerId, size);
      await becomeNewest(deps, tx, item, content, ancestors);
    });
  } catch (error) {
    await deleteBlobs(deps, [blobKey]);
    throw error;
  }
  return { id: target.id, size, link: dataLink(target.id) };
}

/**
 * Where an upload's parts may go: into its file for a new version (editable by the principal), or
 * under its parent for a new item (writable there). Returns the ancestors read on the way.
 */
export async function uploadDestination(
  reader: FilesReader,
  principal: Principal,
  upload: UploadRecord,
  item: ItemRecord,
): Promise<ItemRecord[]> {
  if (!upload.versionOf) return writableParent(reader, principal, item.parentId);
  return (await writableFile(reader, principal, upload.versionOf)).ancestors;
}

/**
 * Completes a new version sent in parts, every part in: the file's content becomes a version,
 * the waiting parts become the file's, and the waiting item and its upload go. The caller holds
 * the owner's lock (lockUpload) and has checked the parts.
 */
export async function completeVersion(
  deps: FilesDeps,
  tx: FilesTransaction,
  principal: Principal,
  upload: UploadRecord & { versionOf: string },
  waiting: ItemRecord,
): Promise<{ id: string; size: number; link: string }> {
  const { item, ancestors } = await writableFile(tx, principal, upload.versionOf);
  await checkFreshNonce(tx, item, waiting.fileNonce!);
  const now = deps.clock();
  await archiveContent(tx, item, now);
  await tx.moveParts(waiting.id, item.id);
  await tx.deleteUploads([waiting.id]);
  await tx.deleteItems([waiting.id]);
  await deps.quota.releaseReserve(tx, item.ownerId, upload.reservedRemaining);
  await becomeNewest(
    deps,
    tx,
    item,
    {
      size: waiting.size,
      fileNonce: waiting.fileNonce,
      encryptedMimeType: waiting.encryptedMimeType,
      mimeTypeNonce: waiting.mimeTypeNonce,
      uploaderId: waiting.uploaderId,
      modifiedAt: now,
    },
    ancestors,
  );
  return { id: item.id, size: waiting.size, link: dataLink(item.id) };
}

/** The file's record takes the new content (its parts already in place); old versions beyond the limit go. */
async function becomeNewest(
  deps: FilesDeps,
  tx: FilesTransaction,
  item: ItemRecord,
  content: ItemContent,
  ancestors: readonly ItemRecord[],
): Promise<void> {
  await tx.replaceContent(item, content);
  await trimVersions(deps, tx, item);
  tx.publish(itemEvent('item.versions', item, await audienceOf(tx, item, ancestors)));
}
