import { PART_BYTES, partRange } from '@sealbox/crypto';
import type { FilesReader, FilesTransaction, ItemRecord, UploadRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { ownsUpload, type Principal } from './access.ts';
import { newPartKey, partKeyTime } from './blob-keys.ts';
import { removeItems } from './deletion.ts';
import { UPLOAD_TTL_MS, type FilesDeps, type FilesPorts } from './deps.ts';
import { audienceOf, itemEvent } from './events.ts';
import { checkFileLimit, checkQuota, type QuotaRecord } from './quota.ts';
import { deleteBlobs, storeExactly } from './storage.ts';
import { invalid, uuid } from './validation.ts';
import { completeVersion, uploadDestination } from './version-uploads.ts';
import { dataLink } from './view.ts';

/**
 * A part must be committed well within the time the orphan sweep leaves fresh blobs alone,
 * or another instance's sweep could take its blob first (see sweep.ts).
 */
export const PART_COMMIT_DEADLINE_MS = 30 * 60 * 1000;

export interface UploadStatus {
  id: string;
  uploadId: string;
  size: number;
  partBytes: number;
  parts: number;
  received: number[];
}

const uploadNotFound = () => new DomainError('NOT_FOUND', 'Upload not found');

/** Part numbers arrive as path text: digits only, no sign, no exponent. */
export function partNumber(raw: string): number {
  if (!/^\d{1,6}$/.test(raw)) throw invalid('part number must be a whole number');
  return Number(raw);
}

/**
 * Who may act on an upload: whoever started it, the same way (`ownsUpload`); with `owner`, also
 * the owner of the tree it goes into, signed in without a link, who may end anyone's there.
 */
type Reach = 'uploader' | 'owner';

async function mayReach(
  reader: FilesReader,
  principal: Principal,
  upload: UploadRecord,
  reach: Reach,
  item?: ItemRecord,
): Promise<boolean> {
  if (ownsUpload(principal, upload)) return true;
  if (reach !== 'owner' || principal.kind !== 'user') return false;
  return (item ?? (await reader.item(upload.itemId)))?.ownerId === principal.userId;
}

/** The caller's own live upload; anyone else's, an unknown and an expired one are alike 404. */
async function liveUpload(
  deps: FilesDeps,
  principal: Principal,
  uploadId: string,
  reach: Reach = 'uploader',
): Promise<UploadRecord> {
  uuid(uploadId, 'uploadId');
  const upload = await deps.store.upload(uploadId);
  if (!upload || !(await mayReach(deps.store, principal, upload, reach))) throw uploadNotFound();
  if (upload.expiresAt <= deps.clock()) {
    await expireUpload(deps, upload.id);
    throw uploadNotFound();
  }
  return upload;
}

/**
 * Locks in one order everywhere, the owner's row first and then the upload's, so a delete of
 * the folder around an upload (which locks the owner) cannot deadlock with a part arriving.
 */
async function lockUpload(
  deps: FilesPorts,
  tx: FilesTransaction,
  uploadId: string,
): Promise<{ upload: UploadRecord; item: ItemRecord; quota: QuotaRecord } | undefined> {
  const seen = await tx.upload(uploadId);
  const item = seen && (await tx.item(seen.itemId));
  if (!item) return undefined;
  const quota = await deps.quota.lockOwner(tx, item.ownerId);
  const upload = await tx.lockUpload(uploadId);
  if (!upload || !quota) return undefined;
  return { upload, item, quota };
}

function checkLive(deps: FilesDeps, principal: Principal, upload: UploadRecord | undefined): UploadRecord {
  if (!upload || !ownsUpload(principal, upload) || upload.expiresAt <= deps.clock()) throw uploadNotFound();
  return upload;
}

/** Bytes part n of a file of `size` must have. */
export function expectedPartLength(n: number, size: number): number {
  const { start, end } = partRange(n, size);
  return end - start;
}

/**
 * PUT /api/upload/{uploadId}/part/{n}. The body streams into a new blob (at most one part is
 * ever held, never buffered whole); once durable, one transaction records it and moves its
 * bytes from the owner's reserved space to used space. Sending a part again replaces it (same
 * length, so the same bytes are counted once) and the old blob goes after the commit.
 */
export async function receivePart(
  deps: FilesDeps,
  principal: Principal,
  uploadId: string,
  n: number,
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
): Promise<void> {
  const upload = await liveUpload(deps, principal, uploadId);
  if (!Number.isSafeInteger(n) || n < 0 || n >= upload.parts) throw invalid(`part number must be 0 to ${upload.parts - 1}`);
  const expected = expectedPartLength(n, upload.size);
  if (declaredLength !== null && declaredLength !== expected) throw invalid(`part ${n} must be ${expected} bytes`);
  // MAX_FILE_BYTES or the quota may have been lowered since the upload began.
  checkFileLimit(deps, upload.size);
  const item = await deps.store.item(upload.itemId);
  if (!item) throw uploadNotFound();
  // Bytes go into the owner's quota only while the uploader may still write there (a revoked
  // editor, a link switched to viewer or moved out of reach: 404 or 403 before any byte).
  await uploadDestination(deps.store, principal, upload, item);
  checkQuota(await deps.quota.read(item.ownerId), 0);

  const started = deps.clock();
  const blobKey = newPartKey(started);
  await storeExactly(deps, blobKey, body, expected);
  try {
    await deps.store.transaction(async (tx) => {
      const locked = await lockUpload(deps, tx, uploadId);
      const current = checkLive(deps, principal, locked?.upload);
      const quota = checkQuota(locked!.quota, 0);
      const now = deps.clock();
      if (now - (partKeyTime(blobKey) ?? started) > PART_COMMIT_DEADLINE_MS) {
        throw new DomainError('UNAVAILABLE', 'The part took too long to arrive; send it again');
      }
      const replaced = await tx.putPart({ itemId: current.itemId, n, size: expected, blobKey, createdAt: now });
      if (replaced) {
        tx.afterCommit(() => deleteBlobs(deps, [replaced.blobKey]));
      } else {
        const fromReserve = await deps.quota.chargePart(tx, quota, current, item.ownerId, expected);
        await tx.updateUpload(current.id, { reservedRemaining: current.reservedRemaining - fromReserve });
      }
      await tx.updateUpload(current.id, { lastActivityAt: now, expiresAt: now + UPLOAD_TTL_MS });
    });
  } catch (error) {
    await deleteBlobs(deps, [blobKey]);
    throw error;
  }
}

/** GET /api/upload/{uploadId}: what a reloaded page needs to send only the missing parts. */
export async function uploadStatus(deps: FilesDeps, principal: Principal, uploadId: string): Promise<UploadStatus> {
  const upload = await liveUpload(deps, principal, uploadId);
  const parts = await deps.store.parts(upload.itemId);
  return {
    // A new version's parts wait under an item of their own; the caller knows the file.
    id: upload.versionOf ?? upload.itemId,
    uploadId: upload.id,
    size: upload.size,
    partBytes: PART_BYTES,
    parts: upload.parts,
    received: parts.map((p) => p.n),
  };
}

/** POST /api/upload/{uploadId}/complete: the item becomes visible once every part is in. */
export async function completeUpload(
  deps: FilesDeps,
  principal: Principal,
  uploadId: string,
): Promise<{ id: string; size: number; link: string }> {
  await liveUpload(deps, principal, uploadId);
  return deps.store.transaction(async (tx) => {
    const locked = await lockUpload(deps, tx, uploadId);
    const upload = checkLive(deps, principal, locked?.upload);
    const item = locked!.item;
    // The uploader must still be allowed to write where the file goes.
    const ancestors = await uploadDestination(tx, principal, upload, item);
    const parts = await tx.parts(item.id);
    const missing = parts.length !== upload.parts || parts.some((p) => p.size !== expectedPartLength(p.n, upload.size));
    if (missing) throw new DomainError('CONFLICT', `${upload.parts - parts.length} of ${upload.parts} parts are missing`);
    if (upload.versionOf) return completeVersion(deps, tx, principal, { ...upload, versionOf: upload.versionOf }, item);
    const now = deps.clock();
    await tx.updateItem(item.id, { state: 'ready', modifiedAt: now });
    await tx.deleteUploads([item.id]);
    await deps.quota.releaseReserve(tx, item.ownerId, upload.reservedRemaining);
    tx.publish(itemEvent('upload.completed', item, await audienceOf(tx, item, ancestors)));
    return { id: item.id, size: item.size, link: dataLink(item.id) };
  });
}

/**
 * DELETE /api/upload/{uploadId}: the item and its parts are gone and their bytes freed. The
 * uploader's to do, and the owner's for any upload in their tree (docs/protocol.md).
 */
export async function abortUpload(deps: FilesDeps, principal: Principal, uploadId: string): Promise<void> {
  await liveUpload(deps, principal, uploadId, 'owner');
  await deps.store.transaction(async (tx) => {
    const locked = await lockUpload(deps, tx, uploadId);
    const upload = locked?.upload;
    if (!upload || upload.expiresAt <= deps.clock() || !(await mayReach(tx, principal, upload, 'owner', locked.item))) {
      throw uploadNotFound();
    }
    await removeItems(deps, tx, [locked.item]);
  });
}

/** Expires one upload (its item, parts and reservation) if it is still expired once locked. */
export async function expireUpload(deps: FilesPorts, uploadId: string): Promise<boolean> {
  return deps.store.transaction(async (tx) => {
    const locked = await lockUpload(deps, tx, uploadId);
    if (!locked || locked.upload.expiresAt > deps.clock()) return false;
    await removeItems(deps, tx, [locked.item]);
    return true;
  });
}

/** Removes every upload untouched for UPLOAD_TTL_MS; returns how many. */
export async function expireUploads(deps: FilesPorts): Promise<number> {
  let count = 0;
  for (;;) {
    const batch = await deps.store.expiredUploads(deps.clock(), 100);
    if (batch.length === 0) return count;
    let progressed = false;
    for (const upload of batch) {
      if (await expireUpload(deps, upload.id)) {
        count++;
        progressed = true;
      }
    }
    if (!progressed) return count;
  }
}
