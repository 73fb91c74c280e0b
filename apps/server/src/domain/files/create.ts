import { PART_BYTES } from '@sealbox/crypto';
import type { FilesReader, FilesTransaction, ItemRecord, NewItem } from '../../ports/files.ts';
import { DomainError, isDomainError } from '../errors.ts';
import {
  accessPath,
  canEdit,
  notFound,
  startedAnonymously,
  topLevelOwner,
  uploaderOf,
  uploadLinkOf,
  type Principal,
} from './access.ts';
import { newPartKey } from './blob-keys.ts';
import { UPLOAD_TTL_MS, type FilesDeps } from './deps.ts';
import { audienceOf, itemEvent } from './events.ts';
import { checkDepth, checkItemCount, countCreation } from './limits.ts';
import { checkFileLimit, checkQuota, existingQuota, type QuotaRecord } from './quota.ts';
import { deleteBlobs, storeExactly } from './storage.ts';
import { checkUnfinishedRoom } from './unfinished.ts';
import { cipherSize, invalid, partsOf, type UploadMetadata } from './validation.ts';
import { dataLink } from './view.ts';

/** The `file` part of a single-shot upload: anything with a size and a byte stream (a File). */
export interface IncomingFile {
  size: number;
  stream(): ReadableStream<Uint8Array>;
}

export type CreateResult =
  | { id: string; size: number; link: string }
  | { id: string; size: number; uploadId: string; partBytes: number; parts: number };

/**
 * POST /api/upload. A folder, or a file sent whole (its ciphertext fits in one part), is
 * created ready; a larger file gets an upload whose parts come separately, the item staying
 * invisible until complete. Checks in this order: the creator's rate limit (429), fields (400),
 * parent (404 not visible, 400 a file, 403 no edit right, 400 too deep), MAX_FILE_BYTES (405),
 * quota, item count and, for an upload in parts, the unfinished-upload caps (402), duplicate id (409).
 */
export async function createItem(
  deps: FilesDeps,
  principal: Principal,
  meta: UploadMetadata,
  file: IncomingFile | undefined,
): Promise<CreateResult> {
  await countCreation(deps, principal);
  const parent = (await writableParent(deps.store, principal, meta.parentId))[0];
  const ownerId = parent ? parent.ownerId : topLevelOwner(principal);
  const uploaderId = uploaderOf(principal);
  const now = deps.clock();
  const base: NewItem = {
    id: meta.id,
    parentId: meta.parentId,
    ownerId,
    uploaderId,
    isDirectory: meta.isDirectory,
    encryptedFileName: meta.encryptedFileName,
    nameNonce: meta.nameNonce,
    encryptedMimeType: meta.encryptedMimeType,
    mimeTypeNonce: meta.mimeTypeNonce,
    encryptedKey: meta.encryptedKey,
    keyNonce: meta.keyNonce,
    fileNonce: meta.fileNonce,
    size: 0,
    state: 'ready',
    createdAt: now,
    modifiedAt: now,
  };

  if (meta.isDirectory) {
    if (file) throw invalid('a folder has no file');
    await deps.store.transaction(async (tx) => {
      checkRoom(deps, await deps.quota.lockOwner(tx, ownerId), 0);
      const ancestors = await writableParent(tx, principal, meta.parentId);
      await tx.insertItem(base);
      tx.publish(itemEvent('item.created', base, await audienceOf(tx, base, ancestors)));
    });
    return { id: base.id, size: 0, link: dataLink(base.id) };
  }

  const { size, parts } = uploadSize(deps, meta.size, file);
  checkRoom(deps, await deps.quota.read(ownerId), size);
  if (!file) await checkUnfinishedRoom(deps, deps.store, principal, ownerId, size);
  if (await deps.store.item(meta.id)) throw new DomainError('CONFLICT', 'An item with this id exists');
  const item: NewItem = { ...base, size };

  if (!file) {
    const uploadId = await deps.store.transaction(async (tx) => {
      checkRoom(deps, await deps.quota.lockOwner(tx, ownerId), size);
      await writableParent(tx, principal, meta.parentId);
      await checkUnfinishedRoom(deps, tx, principal, ownerId, size);
      return beginUpload(deps, tx, principal, item, parts);
    });
    return { id: item.id, size, uploadId, partBytes: PART_BYTES, parts };
  }

  // Crash safety: the blob is durable before any row names it; a crash in between leaves an
  // orphan blob for the start-up sweep, never a row without its bytes.
  const blobKey = newPartKey(now);
  await storeExactly(deps, blobKey, file.stream(), size);
  try {
    await deps.store.transaction(async (tx) => {
      checkRoom(deps, await deps.quota.lockOwner(tx, ownerId), size);
      const ancestors = await writableParent(tx, principal, meta.parentId);
      await tx.insertItem(item);
      await tx.putPart({ itemId: item.id, n: 0, size, blobKey, createdAt: now });
      await deps.quota.chargeWholeFile(tx, ownerId, size);
      tx.publish(itemEvent('item.created', item, await audienceOf(tx, item, ancestors)));
    });
  } catch (error) {
    await deleteBlobs(deps, [blobKey]);
    if (isDomainError(error, 'CONFLICT')) throw new DomainError('CONFLICT', 'An item with this id exists');
    throw error;
  }
  return { id: item.id, size, link: dataLink(item.id) };
}

/** The ciphertext size a file's upload claims, and its parts; checked against `file` when sent whole. */
export function uploadSize(
  deps: FilesDeps,
  claimed: number | null,
  file: IncomingFile | undefined,
): { size: number; parts: number } {
  if (claimed === null && !file) throw invalid('size is required for a file sent in parts');
  // Without `size` the length of `file` is the claim, and it is checked like one.
  const size = claimed ?? cipherSize(file!.size, "the file's length");
  if (file && file.size !== size) throw invalid('size does not match the file sent');
  const parts = partsOf(size);
  if (file && parts !== 1) throw invalid(`a file larger than ${PART_BYTES} bytes is sent in parts`);
  checkFileLimit(deps, size);
  return { size, parts };
}

/**
 * A file sent in parts: its item, invisible until complete, and its upload, whose size is reserved
 * on the owner's space. `versionOf`: the file it becomes a new version of (versions.ts). The
 * caller holds the owner's lock and has checked the room. Returns the upload's id.
 */
export async function beginUpload(
  deps: FilesDeps,
  tx: FilesTransaction,
  principal: Principal,
  item: NewItem,
  parts: number,
  versionOf: string | null = null,
): Promise<string> {
  const uploadId = crypto.randomUUID();
  await tx.insertItem({ ...item, state: 'uploading' });
  await tx.insertUpload({
    id: uploadId,
    itemId: item.id,
    // Older builds know an anonymous holder's upload by the owner's id (and `anonymous`).
    userId: item.uploaderId ?? item.ownerId,
    linkId: uploadLinkOf(principal),
    anonymous: startedAnonymously(principal),
    size: item.size,
    parts,
    reservedRemaining: item.size,
    createdAt: item.createdAt,
    lastActivityAt: item.createdAt,
    expiresAt: item.createdAt + UPLOAD_TTL_MS,
    ...(versionOf === null ? {} : { versionOf }),
  });
  await deps.quota.reserveUpload(tx, item.ownerId, item.size);
  return uploadId;
}

/**
 * Room for one more item of `bytes`; a folder (0 bytes) fits even in a full quota. Checked once
 * early and again on the quota read under the owner's lock, so racing creates cannot pass either limit.
 */
export function checkRoom(deps: FilesDeps, quota: QuotaRecord | undefined, bytes: number): void {
  checkItemCount(deps, bytes === 0 ? existingQuota(quota) : checkQuota(quota, bytes));
}

/**
 * The folder a new item goes into: visible (404), a folder (400), editable (403), with a level
 * left below it (400). Returns the new item's ancestors, parent first: none for the top level,
 * which only the principal's own tree has.
 */
export async function writableParent(reader: FilesReader, principal: Principal, parentId: string | null): Promise<ItemRecord[]> {
  if (parentId === null) {
    topLevelOwner(principal);
    return [];
  }
  const parent = await reader.item(parentId);
  const path = parent ? await accessPath(reader, principal, parent) : null;
  if (!parent || path === null) throw notFound('Parent folder');
  if (!parent.isDirectory) throw invalid('parentId names a file, not a folder');
  if (!canEdit(path.role)) throw new DomainError('FORBIDDEN', 'You do not have permission to create items here');
  // The parent sits at level ancestors + 1; the new item one below.
  checkDepth(path.ancestors.length + 2);
  return [parent, ...path.ancestors];
}
