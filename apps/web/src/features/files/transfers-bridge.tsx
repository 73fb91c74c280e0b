/**
 * Where the browser meets the transfers feature (features/files/transfers): the upload overlay
 * and streamed downloads. Kept as one seam so the browser never reaches into its internals.
 */
export { UploadOverlay, downloadItems, type UploadOverlayProps } from './transfers/index.ts';

/** Why downloads are unavailable (undefined: they are available). */
export const DOWNLOAD_BLOCKED: string | undefined = undefined;
