/**
 * Grid thumbnails, made inside the crypto worker (DESIGN.md 5: decryption never on the UI
 * thread; keys never leave this worker).
 *
 * Images (png, jpeg, gif, webp, bmp up to IMAGE_MAX_BYTES): the whole blob is fetched, each chunk
 * decrypted with the item's K and fileNonce, the header checked against the raster formats
 * (so SVG or anything else in disguise is never decoded), then decoded with createImageBitmap,
 * scaled to the edge asked for and encoded as WebP on an OffscreenCanvas. Only that small image
 * goes to the page.
 *
 * Videos (mp4, webm, mov): the first chunks (VIDEO_HEAD_BYTES at most) are decrypted and handed
 * to the page, which feeds them to a detached <video> for one frame (useThumbnail.ts).
 */
import { CHUNK, fromBase64, plaintextSize } from '@sealbox/crypto';
import {
  IMAGE_MAX_BYTES,
  THUMB_QUALITY,
  VIDEO_HEAD_BYTES,
  scaledSize,
  thumbnailKind,
  videoTypeOf,
  type ThumbnailKind,
} from '../model/thumbnails.ts';
import type { ItemView, ServerItem } from '../model/items.ts';
import { itemKey, openItems } from './items.ts';
import { CodedError } from './coded-error.ts';
import { decryptHead } from './file-head.ts';
import { getListing, type Listing } from './listing-fetch.ts';

// Kept importable from here (thumbnail-cache.test.ts); it lives in model/thumbnails.ts, shared with the page.
export { scaledSize };

const thumbnailError = (code: string, message: string) => new CodedError('ThumbnailError', code, message);

export interface EncodedThumbnail {
  bytes: Uint8Array;
  /** Mime type of `bytes` (image/webp, or image/png where WebP encoding is missing). */
  type: string;
}

export interface VideoHead {
  bytes: Uint8Array;
  /** video/mp4 or video/webm. */
  type: string;
}

interface Target {
  item: ServerItem;
  view: ItemView;
  kind: ThumbnailKind | null;
  plainSize: number;
  /** Reached through this share link: its data calls carry it too. */
  linkId?: string;
}

/** The item as the server has it now (its fileNonce and size), opened like any listing. */
async function loadTarget(id: string, linkId: string | undefined): Promise<Target | null> {
  let listing: Listing;
  try {
    listing = await getListing(id, 1, 1, 0, thumbnailError, linkId);
  } catch (error) {
    // Gone, or not this user's to see: no thumbnail rather than an error.
    if (error instanceof CodedError && (error.code === 'HTTP_403' || error.code === 'HTTP_404')) return null;
    throw error;
  }
  const { root } = listing;
  if (!root || root.id !== id || root.isDirectory || root.fileNonce === null) return null;
  const [view] = await openItems([root]);
  if (!view?.decrypted) return null;
  let plainSize: number;
  try {
    plainSize = plaintextSize(root.size);
  } catch {
    return null;
  }
  return { item: root, view, kind: thumbnailKind(view), plainSize, ...(linkId ? { linkId } : {}) };
}

/** Plaintext of the first chunks covering `limit` bytes (file-head.ts); `plainSize` and `limit` above 0. */
function decryptTargetHead(target: Target, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const { item, plainSize } = target;
  return decryptHead(
    { id: item.id, key: itemKey(item.id), fileNonce: fromBase64(item.fileNonce!, 'fileNonce'), plainSize, linkId: target.linkId },
    limit,
    thumbnailError,
  );
}

/** PNG, JPEG, GIF, WebP or BMP by their magic bytes: nothing else reaches the decoder. */
export function isRasterImage(bytes: Uint8Array): boolean {
  const at = (i: number) => bytes[i] ?? -1;
  const ascii = (from: number, text: string) => [...text].every((c, i) => at(from + i) === c.charCodeAt(0));
  if (at(0) === 0x89 && ascii(1, 'PNG')) return true;
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return true;
  if (ascii(0, 'GIF8')) return true;
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return true;
  return ascii(0, 'BM') && bytes.length > 26;
}

function clampEdge(maxEdge: number): number {
  return Number.isFinite(maxEdge) ? Math.min(1024, Math.max(16, Math.round(maxEdge))) : 320;
}

async function encode(bitmap: ImageBitmap, maxEdge: number): Promise<EncodedThumbnail> {
  const size = scaledSize(bitmap.width, bitmap.height, maxEdge);
  const small =
    size.width === bitmap.width && size.height === bitmap.height
      ? bitmap
      : await createImageBitmap(bitmap, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
  try {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext('2d');
    if (!context) throw thumbnailError('UNSUPPORTED', 'No 2D canvas in this worker');
    context.drawImage(small, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/webp', quality: THUMB_QUALITY });
    return { bytes: new Uint8Array(await blob.arrayBuffer()), type: blob.type || 'image/png' };
  } finally {
    if (small !== bitmap) small.close();
  }
}

/**
 * A thumbnail of image `id` with its longest edge at most `maxEdge` px, or null when the item
 * is not a raster image this makes thumbnails of (or too large, or does not decode).
 */
async function thumbnail(id: string, maxEdge: number, linkId?: string): Promise<EncodedThumbnail | null> {
  const target = await loadTarget(id, linkId);
  if (target?.kind !== 'image' || target.plainSize === 0 || target.plainSize > IMAGE_MAX_BYTES) return null;
  const bytes = await decryptTargetHead(target, target.plainSize);
  if (!isRasterImage(bytes)) return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes]));
  } catch {
    return null;
  }
  try {
    if (bitmap.width === 0 || bitmap.height === 0) return null;
    return await encode(bitmap, clampEdge(maxEdge));
  } finally {
    bitmap.close();
  }
}

/** The decrypted start of video `id` (at most `maxBytes`, whole chunks), or null for a non-video. */
async function videoHead(id: string, maxBytes: number, linkId?: string): Promise<VideoHead | null> {
  const target = await loadTarget(id, linkId);
  if (target?.kind !== 'video' || target.plainSize === 0) return null;
  const limit = Number.isFinite(maxBytes) ? Math.min(VIDEO_HEAD_BYTES * 2, Math.max(CHUNK, maxBytes)) : VIDEO_HEAD_BYTES;
  return { bytes: await decryptTargetHead(target, limit), type: videoTypeOf(target.view) };
}

/** The RPC surface (spread into the crypto worker's methods). */
export const thumbnailMethods = {
  thumbnail,
  videoHead,
};
