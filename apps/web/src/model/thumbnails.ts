/**
 * Which items get a grid thumbnail and how large it is (docs/product.md "Screens" "previews of
 * images and videos"): the rules the page (features/files), the crypto worker
 * (workers/thumbnails.ts) and the image worker (workers/image.worker.ts) share.
 */
import { thumbnailKind } from '@sealbox/rules';
import type { ItemView } from './items.ts';

/** Plaintext size above which an image is not fetched for a thumbnail. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** How much of a video's start is decrypted for its poster frame. */
export const VIDEO_HEAD_BYTES = 8 * 1024 * 1024;
/** Longest edge of a thumbnail, in pixels. */
export const THUMB_EDGE = 320;
/** WebP quality of an encoded thumbnail (worker images and page-drawn video frames alike). */
export const THUMB_QUALITY = 0.82;

/**
 * 'image' for raster images (png, jpeg, gif, webp, bmp) by mime type or extension, 'video' for
 * mp4, webm and mov (and m4v); null for anything else. SVG never gets one (a type icon instead):
 * it is only ever shown through <img> in the previewer, never rasterised here. `videoTypeOf` is
 * the type a video's bytes are given on the page. Both read the one file-type table.
 */
export { thumbnailKind, videoType as videoTypeOf, type ThumbnailKind } from '@sealbox/rules';

/** Whether a card should ask for a thumbnail at all. */
export function wantsThumbnail(item: ItemView): boolean {
  // An item in the trash is hidden by the server until restored: its bytes cannot be read.
  if (!item.decrypted || item.size <= 0 || item.trashed) return false;
  const kind = thumbnailKind(item);
  if (kind === 'image') return item.size <= IMAGE_MAX_BYTES;
  return kind === 'video';
}

/** `width` x `height` scaled down (never up) so its longest edge is at most `maxEdge`, 1 px at least. */
export function scaledSize(width: number, height: number, maxEdge: number): { width: number; height: number } {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export const thumbnailKey = (item: Pick<ItemView, 'id' | 'modifiedAt'>) => `${item.id}:${item.modifiedAt}`;

/** PNG, JPEG, GIF, WebP or BMP by their magic bytes: nothing else reaches an image decoder. */
export function isRasterImage(bytes: Uint8Array): boolean {
  const at = (i: number) => bytes[i] ?? -1;
  const ascii = (from: number, text: string) => [...text].every((c, i) => at(from + i) === c.charCodeAt(0));
  if (at(0) === 0x89 && ascii(1, 'PNG')) return true;
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return true;
  if (ascii(0, 'GIF8')) return true;
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return true;
  return ascii(0, 'BM') && bytes.length > 26;
}
