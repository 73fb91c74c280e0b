import { plaintextSize } from '@sealbox/crypto';
import type { FilesTransaction, PartRecord, QuotaRecord, UploadRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import type { FilesDeps } from './deps.ts';
import { quotaChanged } from './events.ts';

/**
 * Every rule about an owner's space, and every step that moves bytes between its counters
 * (docs/protocol.md "Quota"): used counts stored ciphertext, reserved what started uploads may
 * still send. Callers hold the owner's lock (lockOwner or lockUpload) around each step.
 */

/** SPEC 8's texts. */
export const QUOTA_MESSAGE = 'Not enough storage space';
export const TOO_LARGE_MESSAGE = 'File is too large';

/** MAX_FILE_BYTES bounds the plaintext: a file of exactly the limit can be stored. */
export function checkFileLimit(deps: FilesDeps, cipherSize: number): void {
  if (plaintextSize(cipherSize) > deps.maxFileBytes) throw new DomainError('FILE_TOO_LARGE', TOO_LARGE_MESSAGE);
}

/** The quota of a user that exists. */
export function existingQuota(quota: QuotaRecord | undefined): QuotaRecord {
  if (!quota) throw new DomainError('NOT_FOUND', 'User not found');
  return quota;
}

/** used + reserved + extra must stay within total (docs/protocol.md "Quota"). */
export function checkQuota(maybeQuota: QuotaRecord | undefined, extra: number): QuotaRecord {
  const quota = existingQuota(maybeQuota);
  if (quota.usedSpace + quota.reservedSpace + extra > quota.totalSpace) throw new DomainError('QUOTA_EXCEEDED', QUOTA_MESSAGE);
  return quota;
}

/** A file sent in parts holds its whole size aside when the upload starts; the owner sees it reserved. */
export async function reserveUpload(tx: FilesTransaction, ownerId: string, bytes: number): Promise<void> {
  await tx.adjustSpace(ownerId, { reserved: bytes });
  tx.publish(quotaChanged(ownerId));
}

/** A file sent whole: its bytes are used at once. */
export async function chargeWholeFile(tx: FilesTransaction, ownerId: string, bytes: number): Promise<void> {
  await tx.adjustSpace(ownerId, { used: bytes });
  tx.publish(quotaChanged(ownerId));
}

/**
 * A part arrived for the first time: its bytes move from the upload's reserve to used; any beyond
 * the reserve (the reserve was spent on parts sent again) must still fit. Returns what the reserve gave.
 */
export async function chargePart(
  tx: FilesTransaction,
  quota: QuotaRecord,
  upload: Pick<UploadRecord, 'reservedRemaining'>,
  ownerId: string,
  bytes: number,
): Promise<number> {
  const fromReserve = Math.min(bytes, upload.reservedRemaining);
  if (bytes > fromReserve) checkQuota(quota, bytes - fromReserve);
  await tx.adjustSpace(ownerId, { used: bytes, reserved: -fromReserve });
  return fromReserve;
}

/** A completed upload gives back what its reserve still held. */
export async function releaseReserve(tx: FilesTransaction, ownerId: string, bytes: number): Promise<void> {
  await tx.adjustSpace(ownerId, { reserved: -bytes });
  tx.publish(quotaChanged(ownerId));
}

/** Deleted items free their stored parts and their unfinished uploads' reserves, owner by owner. */
export async function freeDeleted(
  tx: FilesTransaction,
  ownerOf: (itemId: string) => string,
  parts: readonly Pick<PartRecord, 'itemId' | 'size'>[],
  uploads: readonly Pick<UploadRecord, 'itemId' | 'reservedRemaining'>[],
): Promise<void> {
  const freed = new Map<string, { used: number; reserved: number }>();
  const entry = (owner: string) => freed.get(owner) ?? freed.set(owner, { used: 0, reserved: 0 }).get(owner)!;
  for (const part of parts) entry(ownerOf(part.itemId)).used += part.size;
  for (const upload of uploads) entry(ownerOf(upload.itemId)).reserved += upload.reservedRemaining;
  for (const [owner, space] of freed) {
    await tx.adjustSpace(owner, { used: -space.used, reserved: -space.reserved });
    tx.publish(quotaChanged(owner));
  }
}
