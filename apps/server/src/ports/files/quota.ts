import type { FilesTransaction } from '../files.ts';

/**
 * The quota port: each user's space and item count (columns of `users`). Only
 * domain/files/quota.ts receives it (docs/protocol.md "Quota"), so no other module of the files
 * domain can move bytes between the counters: their deps do not have it. It works inside a
 * transaction of the files store, which it is given.
 */

export interface QuotaRecord {
  userId: string;
  usedSpace: number;
  reservedSpace: number;
  totalSpace: number;
  /** Items the user owns, whatever their state. */
  itemCount: number;
}

export interface QuotaStore {
  /** The user's quota as it is now, outside any transaction. */
  quota(userId: string): Promise<QuotaRecord | undefined>;
  /** Locks the user row in `tx`, as `tx.lockOwner` does, and returns their quota read under the lock. */
  lockQuota(tx: FilesTransaction, userId: string): Promise<QuotaRecord | undefined>;
  /** Adds the deltas to the user's used and reserved space, in `tx`. */
  adjustSpace(tx: FilesTransaction, userId: string, delta: { used?: number; reserved?: number }): Promise<void>;
}
