import { plaintextSize } from '@sealbox/crypto';
import type { FilesTransaction, PartRecord, UploadRecord } from '../../ports/files.ts';
import type { QuotaRecord, QuotaStore } from '../../ports/files/quota.ts';
import { DomainError } from '../errors.ts';
import { quotaChanged } from './events.ts';

/**
 * Every rule about an owner's space, and every step that moves bytes between its counters
 * (docs/protocol.md "Quota"): used counts stored ciphertext, reserved what started uploads may
 * still send. Callers hold the owner's lock (`lockOwner` here, or tx.lockOwner or lockUpload)
 * around each step. This module alone receives the quota port: the rest of the files domain
 * reaches the counters through `Quota`, which its deps carry (deps.ts).
 */

export type { QuotaRecord } from '../../ports/files/quota.ts';

/** What a 402 over quota and a 405 over MAX_FILE_BYTES say (docs/protocol.md "Quota"). */
export const QUOTA_MESSAGE = 'Not enough storage space';
export const TOO_LARGE_MESSAGE = 'File is too large';

/** MAX_FILE_BYTES bounds the plaintext: a file of exactly the limit can be stored. */
export function checkFileLimit(deps: { maxFileBytes: number }, cipherSize: number): void {
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

/** The owner's space as the rest of the files domain may read and move it. */
export interface Quota {
  /** The owner's quota as it is now: an early check, made again under the lock. */
  read(ownerId: string): Promise<QuotaRecord | undefined>;
  /** Locks the owner for the rest of `tx` (as tx.lockOwner does) and reads their quota under the lock. */
  lockOwner(tx: FilesTransaction, ownerId: string): Promise<QuotaRecord | undefined>;
  /** A file sent in parts holds its whole size aside when the upload starts; the owner sees it reserved. */
  reserveUpload(tx: FilesTransaction, ownerId: string, bytes: number): Promise<void>;
  /** A file sent whole: its bytes are used at once. */
  chargeWholeFile(tx: FilesTransaction, ownerId: string, bytes: number): Promise<void>;
  /**
   * A part arrived for the first time: its bytes move from the upload's reserve to used; any beyond
   * the reserve (the reserve was spent on parts sent again) must still fit. Returns what the reserve gave.
   */
  chargePart(
    tx: FilesTransaction,
    quota: QuotaRecord,
    upload: Pick<UploadRecord, 'reservedRemaining'>,
    ownerId: string,
    bytes: number,
  ): Promise<number>;
  /** A completed upload gives back what its reserve still held. */
  releaseReserve(tx: FilesTransaction, ownerId: string, bytes: number): Promise<void>;
  /** Deleted items free their stored parts and their unfinished uploads' reserves, owner by owner. */
  freeDeleted(
    tx: FilesTransaction,
    ownerOf: (itemId: string) => string,
    parts: readonly Pick<PartRecord, 'itemId' | 'size'>[],
    uploads: readonly Pick<UploadRecord, 'itemId' | 'reservedRemaining'>[],
  ): Promise<void>;
}

/** The files domain's `Quota` over the quota port; made once where the deps are put together. */
export function createQuota(port: QuotaStore): Quota {
  return {
    read: (ownerId) => port.quota(ownerId),
    lockOwner: (tx, ownerId) => port.lockQuota(tx, ownerId),
    async reserveUpload(tx, ownerId, bytes) {
      await port.adjustSpace(tx, ownerId, { reserved: bytes });
      tx.publish(quotaChanged(ownerId));
    },
    async chargeWholeFile(tx, ownerId, bytes) {
      await port.adjustSpace(tx, ownerId, { used: bytes });
      tx.publish(quotaChanged(ownerId));
    },
    async chargePart(tx, quota, upload, ownerId, bytes) {
      const fromReserve = Math.min(bytes, upload.reservedRemaining);
      if (bytes > fromReserve) checkQuota(quota, bytes - fromReserve);
      await port.adjustSpace(tx, ownerId, { used: bytes, reserved: -fromReserve });
      return fromReserve;
    },
    async releaseReserve(tx, ownerId, bytes) {
      await port.adjustSpace(tx, ownerId, { reserved: -bytes });
      tx.publish(quotaChanged(ownerId));
    },
    async freeDeleted(tx, ownerOf, parts, uploads) {
      const freed = new Map<string, { used: number; reserved: number }>();
      const entry = (owner: string) => freed.get(owner) ?? freed.set(owner, { used: 0, reserved: 0 }).get(owner)!;
      for (const part of parts) entry(ownerOf(part.itemId)).used += part.size;
      for (const upload of uploads) entry(ownerOf(upload.itemId)).reserved += upload.reservedRemaining;
      for (const [owner, space] of freed) {
        await port.adjustSpace(tx, owner, { used: -space.used, reserved: -space.reserved });
        tx.publish(quotaChanged(owner));
      }
    },
  };
}
