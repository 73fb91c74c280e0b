import type { BlobStore } from '../../ports/blob-store.ts';
import type { FilesStore } from '../../ports/files.ts';
import type { Logger } from '../../ports/logger.ts';

/** What every files service gets: ports, a clock and settings. Never the request. */
export interface FilesDeps {
  store: FilesStore;
  blobs: BlobStore;
  logger: Logger;
  /** Epoch milliseconds; tests move it to expire uploads. */
  clock: () => number;
  /** MAX_FILE_BYTES: the largest plaintext a file may have. */
  maxFileBytes: number;
}

/** docs/protocol.md "Quota": an upload untouched this long expires. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
