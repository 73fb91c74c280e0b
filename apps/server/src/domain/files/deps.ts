import type { BlobStore } from '../../ports/blob-store.ts';
import type { FilesStore } from '../../ports/files.ts';
import type { Logger } from '../../ports/logger.ts';
import type { RateLimiter } from '../accounts/rate-limits.ts';
import type { Quota } from './quota.ts';

/** What the files domain's background work (the sweep) needs: ports, the quota and a clock. */
export interface FilesPorts {
  store: FilesStore;
  /** Owners' space, through quota.ts (`createQuota`), the one module given the quota port. */
  quota: Quota;
  blobs: BlobStore;
  logger: Logger;
  /** Epoch milliseconds; tests move it to expire uploads. */
  clock: () => number;
  /**
   * TRASH_RETENTION_DAYS in ms: how long a deleted item stays in its owner's trash (trash.ts).
   * 0 or unset: no trash, a delete is for good at once.
   */
  trashRetentionMs?: number;
  /** MAX_VERSIONS: earlier versions kept per file (versions.ts); unset: DEFAULT_MAX_VERSIONS. */
  maxVersions?: number;
  /**
   * VERSION_RETENTION_DAYS in ms: how long a version is kept after it stopped being the newest
   * (versions.ts); unset: DEFAULT_VERSION_RETENTION_DAYS. 0: kept until MAX_VERSIONS pushes it out.
   */
  versionRetentionMs?: number;
}

/** What every files service gets: ports, a clock and settings. Never the request. */
export interface FilesDeps extends FilesPorts {
  /** MAX_FILE_BYTES: the largest plaintext a file may have. */
  maxFileBytes: number;
  /** MAX_ITEMS_PER_USER: items one owner may have, whatever their state. */
  maxItemsPerUser: number;
  /**
   * MAX_UNFINISHED_BYTES_PER_LINK and _PER_UPLOADER: the whole size of the unfinished uploads
   * one link, and one signed-in user other than the owner, may hold in an owner's tree (unfinished.ts).
   */
  maxUnfinishedBytes: { perLink: number; perUploader: number };
  /**
   * The accounts API's limiter; item creation, sharing, link passwords and listings have their
   * own entries (createItemAccount, shareAccount, linkPassword*, listedItemsActor, sharedEntriesAccount).
   */
  limiter: Pick<RateLimiter, 'hit' | 'slow' | 'refund' | 'charge'>;
}

/** docs/protocol.md "Quota": an upload untouched this long expires. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
