import type { AccountRepositories } from '../../ports/accounts.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import type { RateLimiter } from './rate-limits.ts';

/** What every accounts service gets: ports, a clock and settings. Never the request. */
export interface AccountsDeps extends AccountRepositories {
  blobs: BlobStore;
  limiter: RateLimiter;
  /** Epoch milliseconds; tests move it to expire sessions and step TOTP codes. */
  clock: () => number;
  defaultQuotaBytes: number;
}
