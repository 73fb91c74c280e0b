/** Shapes shared by the page, the crypto worker's transfer methods and the download service worker. */
import { streamType } from '@sealbox/rules';
import type { BrowseScope } from './browse-scope.ts';
import type { ZipColumns } from './zip-columns.ts';

export interface UploadRequest {
  file: File;
  parentId: string | null;
  /** Store it under this name rather than the file's own ("keep both" on a duplicate name). */
  name?: string;
  /** Continue this unfinished upload (the same file picked again); a mismatch starts afresh. */
  resumeUploadId?: string;
  /**
   * Where the folder is browsed: its key comes from that scope's ring, and through a link (an
   * editor link) every call carries `?linkId=`.
   */
  scope: BrowseScope;
  /**
   * Upload as a new version of this existing file (docs/protocol.md "Versions"): sealed under
   * its K from `scope`'s ring with a fresh fileNonce; its id, name, shares and links stay.
   */
  versionOf?: string;
}

export interface UploadResult {
  id: string;
  /** Ciphertext size. */
  size: number;
  resumed: boolean;
  /** Parts sent in this run (1 for a one-part file). */
  partsSent: number;
}

/** Posted by the worker on an upload's progress port. */
export type UploadEvent =
  | {
      type: 'progress';
      phase: 'encrypting' | 'uploading';
      /** Plaintext bytes encrypted so far. */
      encrypted: number;
      /** Ciphertext bytes the server has confirmed. */
      sent: number;
      plainSize: number;
      cipherSize: number;
    }
  | { type: 'started'; uploadId: string; id: string };

/** An unfinished upload kept for resuming (never carries its key to the page). */
export interface PendingUpload {
  uploadId: string;
  id: string;
  parentId: string | null;
  name: string;
  size: number;
  lastModified: number;
  partsStarted: number;
  parts: number;
  createdAt: number;
}

/** What the page names for a download (ids and display names only; keys stay in the worker). */
export interface DownloadTarget {
  id: string;
  name: string;
  isDirectory: boolean;
  /** An earlier version of the file `id` rather than its newest content (docs/protocol.md "Versions"). */
  versionId?: string;
}

/** One entry of a download, as the service worker receives it from the crypto worker. */
export type DownloadEntry =
  | { kind: 'dir'; path: string }
  | {
      kind: 'file';
      path: string;
      id: string;
      /** Fetched from that version's data URL instead of the file's. */
      versionId?: string;
      key: Uint8Array;
      fileNonce: Uint8Array;
      /** Plaintext. */
      size: number;
    };

/** A file's download, or a zip's: its entries as columns (model/zip-columns.ts). */
export type DownloadJob = {
  /** File name offered to the user. */
  name: string;
  /** Where the items are reached: a link's data calls carry its id. */
  scope: BrowseScope;
} & ({ kind: 'file'; entries: DownloadEntry[] } | { kind: 'zip'; columns: ZipColumns });

/** What posting `job` moves rather than copies: a zip's typed columns (its keys leave the sender). */
export const jobTransfers = (job: DownloadJob): ArrayBuffer[] =>
  job.kind === 'zip' ? [job.columns.sizes.buffer as ArrayBuffer, job.columns.secrets.buffer as ArrayBuffer] : [];

/** Zeroes the job's keys; a zip's columns already transferred away are empty (filling a detached array throws). */
export function wipeJob(job: DownloadJob): void {
  if (job.kind === 'zip') {
    if (job.columns.secrets.byteLength > 0) job.columns.secrets.fill(0);
    return;
  }
  for (const entry of job.entries) if (entry.kind === 'file') entry.key.fill(0);
}

/** URL prefix the service worker answers (never reaches the server while the SW is active). */
export const DOWNLOAD_PATH = '/__download/';
export const SW_URL = '/sw.js';
export const SW_MESSAGE = 'sealbox-download';
export const SW_ERROR_MESSAGE = 'sealbox-download-error';
/** The service worker tells the pages how far a download is (`{ type, token, sent, total, done }`). */
export const SW_PROGRESS_MESSAGE = 'sealbox-download-progress';
/** A page stops a download (`{ type, token }`): the service worker drops the job or ends its stream. */
export const SW_CANCEL_MESSAGE = 'sealbox-download-cancel';
/** The service worker tells the pages a download was stopped outside them, e.g. in the browser's downloads list (`{ type, token }`). */
export const SW_CANCELLED_MESSAGE = 'sealbox-download-cancelled';

/**
 * Preview streams (docs/protocol.md "Preview streams"): the service worker answers the media
 * element's Range requests for /__preview/{token}, fetching and decrypting only the chunks that
 * cover each range. The job lives until the previewer closes it or it sits idle for PREVIEW_TTL_MS.
 */
export const PREVIEW_PATH = '/__preview/';
export const SW_PREVIEW_MESSAGE = 'sealbox-preview';
/** The page closes a stream (`{ type, token }`): the service worker drops the job and its key. */
export const SW_PREVIEW_CLOSE = 'sealbox-preview-close';
/** The page still shows a stream (`{ type, tokens }`): keeps the jobs (and the service worker) alive. */
export const SW_PREVIEW_KEEP = 'sealbox-preview-keep';
/** A page the service worker does not control yet asks it to (`{ type }`): media requests only reach it then. */
export const SW_PREVIEW_CLAIM = 'sealbox-preview-claim';
/**
 * The page asks whether the service worker still holds a stream (`{ type, token }` with a port;
 * answer `{ alive }`): after a service worker restart or update it does not, and the view makes a
 * new stream rather than reporting a decryption failure.
 */
export const SW_PREVIEW_ALIVE = 'sealbox-preview-alive';
/** A job not read nor kept alive for this long is dropped (key wiped). */
export const PREVIEW_TTL_MS = 60_000;
/** How often an open previewer tells the service worker it still plays its streams. */
export const PREVIEW_KEEP_MS = 20_000;

/** What the service worker holds for one preview stream. `key` is wiped once imported. */
export interface PreviewJob {
  itemId: string;
  key: Uint8Array;
  fileNonce: Uint8Array;
  /** Plaintext bytes. */
  size: number;
  /** One of PREVIEW_MEDIA_TYPES: the only Content-Type the stream is ever served with. */
  mime: string;
  /** Where the item is reached: a link's data calls carry its id. */
  scope: BrowseScope;
  /** An earlier version of the item: its bytes come from that version's data URL. */
  versionId?: string;
}

/**
 * Media types a preview stream may carry (never a type a browser would render as a document),
 * and the one it is served with: the item's own mime type when it is one of them, else one chosen
 * by its extension (docs/product.md "Screens" audio and video extensions); null when neither fits
 * (no stream is made). Both from the one file-type table (@sealbox/rules).
 */
export { STREAM_TYPES as PREVIEW_MEDIA_TYPES } from '@sealbox/rules';

export function previewMediaType(mimeType: string | null, extension: string): string | null {
  return streamType({ mimeType, extension });
}
