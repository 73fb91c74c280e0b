/**
 * Encrypted, streamed, resumable uploads in parts and streamed downloads to disk
 * (docs/protocol.md "Part protocol", docs/protocol.md "Files and uploads"): every transfer of the
 * tab as a row of transfer-store.ts, shown by the transfers panel (TransfersHost, mounted once);
 * the upload dialog and the drop zone over the listing start uploads (with the duplicate-name
 * question of upload-names.ts); download.ts starts downloads; preview-stream.ts gives audio and
 * video a Range-served URL. The work runs in the crypto worker (workers/transfers/) and the
 * download service worker (workers/download.sw.ts).
 */
export { UploadOverlay, type UploadOverlayProps } from './UploadOverlay.tsx';
export { FileDropZone, type FileDropZoneProps } from './FileDropZone.tsx';
export { TransfersHost } from './TransfersPanel.tsx';
export { askDuplicate } from './DuplicateNameDialog.tsx';
export { DOWNLOAD_BLOCKED, downloadItems, downloadVersion, registerDownloadWorker } from './download.ts';
export { chooseFile } from './choose-file.ts';
export { uploadNewVersion } from './transfer-store.ts';
export { isPreviewStreamUrl, previewStreamAlive, previewStreamUrl, releasePreviewStream } from './preview-stream.ts';
export { MAX_FILE_SIZE_LABEL } from '../../model/transfer-plan.ts';
