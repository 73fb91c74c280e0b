/** Shapes shared by the page, the crypto worker's transfer methods and the download service worker. */

export interface UploadRequest {
  file: File;
  parentId: string | null;
  /** Continue this unfinished upload (the same file picked again); a mismatch starts afresh. */
  resumeUploadId?: string;
  /** Upload as this share link's holder (an editor link): every call carries `?linkId=`. */
  linkId?: string;
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
}

/** One entry of a download, as the service worker receives it from the crypto worker. */
export type DownloadEntry =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string; id: string; key: Uint8Array; fileNonce: Uint8Array /** plaintext */; size: number };

export interface DownloadJob {
  kind: 'file' | 'zip';
  /** File name offered to the user. */
  name: string;
  entries: DownloadEntry[];
  /** Set when the items are reached through a share link: every data call carries it. */
  linkId?: string;
}

/** URL prefix the service worker answers (never reaches the server while the SW is active). */
export const DOWNLOAD_PATH = '/__download/';
export const SW_URL = '/sw.js';
export const SW_MESSAGE = 'sealbox-download';
export const SW_ERROR_MESSAGE = 'sealbox-download-error';
