/**
 * Resuming an upload this browser started (docs/protocol.md "Part protocol"): the record kept in
 * IndexedDB (upload-records.ts) with its key, nonce and the fingerprint of every part begun
 * (parts.ts), checked against the file picked again before the same (K, fileNonce) stream
 * continues.
 */
import { PART_BYTES } from '@sealbox/crypto';
import { decideResume } from '../../model/transfer-plan.ts';
import { type BrowseScope, OWN_SCOPE, linkIdOf } from '../../model/browse-scope.ts';
import type { PendingUpload } from '../../model/transfers.ts';
import { loadAnyAccount } from '../key-store.ts';
import { deleteRecord, getRecord, listRecords, recordScope, type UploadRecord } from '../upload-records.ts';
import { fingerprintParts, geometryOf } from './parts.ts';
import { abortOnServer, uploadStatus } from './server.ts';

export interface Prepared {
  record: UploadRecord;
  /** Parts the server already has (resume), else empty. */
  received: number[];
  resumed: boolean;
}

export async function currentUserId(): Promise<string | null> {
  try {
    return (await loadAnyAccount())?.userId ?? null;
  } catch {
    return null;
  }
}

/**
 * A resumable upload, if `uploadId` names one this browser started for the same bytes; undefined
 * when it must start afresh (the record and the server's upload are then deleted).
 */
export async function tryResume(uploadId: string, file: File): Promise<Prepared | undefined> {
  const record = await getRecord(uploadId);
  if (!record) return undefined;
  const g = geometryOf(record.size);
  const decision = decideResume(
    record,
    file,
    file.size === record.size
      ? await fingerprintParts(file, g, Object.keys(record.partHashes).map(Number), record.key, record.fileNonce)
      : {},
  );
  const status = decision.resume ? await uploadStatus(recordScope(record), uploadId).catch(() => undefined) : undefined;
  if (!decision.resume || !status) {
    await abortOnServer(recordScope(record), uploadId);
    await deleteRecord(uploadId);
    return undefined;
  }
  return { record, received: status.received, resumed: true };
}

/**
 * Unfinished uploads that can resume (no keys in the answer): the signed-in user's own, or in a
 * link's scope those started through that share link, which continue only there.
 */
export async function pendingUploads(scope: BrowseScope): Promise<PendingUpload[]> {
  const linkId = linkIdOf(scope);
  const records = (await listRecords(await currentUserId())).filter((r) => linkIdOf(recordScope(r)) === linkId);
  return records.map((r) => ({
    uploadId: r.uploadId,
    id: r.id,
    parentId: r.parentId,
    name: r.name,
    size: r.size,
    lastModified: r.lastModified,
    partsStarted: Object.keys(r.partHashes).length,
    parts: Math.ceil(r.cipherSize / PART_BYTES),
    createdAt: r.createdAt,
  }));
}

/** The server frees the upload's bytes and the record (with K) is deleted. */
export async function forgetUpload(uploadId: string): Promise<void> {
  const record = await getRecord(uploadId).catch(() => undefined);
  // Without a record (another tab's, or gone) the server is still asked, as the signed-in user.
  await abortOnServer(record ? recordScope(record) : OWN_SCOPE, uploadId);
  await deleteRecord(uploadId);
}
