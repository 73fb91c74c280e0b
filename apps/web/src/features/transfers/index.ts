/**
 * Encrypted, streamed, resumable uploads in parts and streamed downloads to disk
 * (docs/protocol.md "Part protocol", DESIGN.md 5): the upload pipeline's page side
 * (upload-store.ts, the overlay), the download's (download.ts) and preview streams'
 * (preview-stream.ts: a Range-served URL for audio and video). The work runs in the crypto
 * worker (workers/transfers/) and the download service worker (workers/download.sw.ts).
 */
export { UploadOverlay, type UploadOverlayProps } from './UploadOverlay.tsx';
export { DOWNLOAD_BLOCKED, downloadItems, registerDownloadWorker } from './download.ts';
export { isPreviewStreamUrl, previewStreamAlive, previewStreamUrl, releasePreviewStream } from './preview-stream.ts';
export { useUploads, type UploadRow } from './upload-store.ts';
export { MAX_FILE_SIZE_LABEL } from '../../model/transfer-plan.ts';
