/**
 * What grid thumbnails are made from, decrypted inside the crypto worker (docs/protocol.md "Files
 * and uploads": decryption never on the UI thread; keys never leave this worker).
 *
 * Images (png, jpeg, gif, webp, bmp up to IMAGE_MAX_BYTES): the whole blob is fetched, each chunk
 * decrypted with the item's K and fileNonce, and the header checked against the raster formats
 * (so SVG or anything else in disguise is never decoded). The bytes go to the image worker
 * (image.worker.ts), which holds no keys, to be decoded and made small: an image decoder fed a
 * file another user chose never runs beside the keys (docs/protocol.md "Threat table").
 *
 * Videos (mp4, webm, mov): the first chunks (VIDEO_HEAD_BYTES at most) are decrypted and handed
 * to the page, which feeds them to a detached <video> for one frame (useThumbnail.ts).
 */
import { CHUNK, fromBase64, plaintextSize } from '@sealbox/crypto';
import type { BrowseScope } from '../model/browse-scope.ts';
import {
  IMAGE_MAX_BYTES,
  VIDEO_HEAD_BYTES,
  isRasterImage,
  thumbnailKind,
  videoTypeOf,
  type ThumbnailKind,
} from '../model/thumbnails.ts';
import type { ItemView, ServerItem } from '../model/items.ts';
import { openItems } from './items.ts';
import { itemKey } from './key-rings.ts';
import { transfer } from '../lib/worker-rpc.ts';
import { CodedError } from './coded-error.ts';
import { decryptHead } from './file-head.ts';
import { getListing, type Listing } from './listing-fetch.ts';

const thumbnailError = (code: string, message: string) => new CodedError('ThumbnailError', code, message);

export interface VideoHead {
  bytes: Uint8Array;
  /** video/mp4 or video/webm. */
  type: string;
}

interface Target {
  scope: BrowseScope;
  item: ServerItem;
  view: ItemView;
  kind: ThumbnailKind | null;
  plainSize: number;
}

/** The item as the server has it now (its fileNonce and size), opened in `scope` like any listing. */
async function loadTarget(scope: BrowseScope, id: string): Promise<Target | null> {
  let listing: Listing;
  try {
    listing = await getListing(scope, id, 1, 1, 0, thumbnailError);
  } catch (error) {
    // Gone, or not this user's to see: no thumbnail rather than an error.
    if (error instanceof CodedError && (error.code === 'HTTP_403' || error.code === 'HTTP_404')) return null;
    throw error;
  }
  const { root } = listing;
  if (!root || root.id !== id || root.isDirectory || root.fileNonce === null) return null;
  const [view] = await openItems(scope, [root]);
  if (!view?.decrypted) return null;
  let plainSize: number;
  try {
    plainSize = plaintextSize(root.size);
  } catch {
    return null;
  }
  return { scope, item: root, view, kind: thumbnailKind(view), plainSize };
}

/** Plaintext of the first chunks covering `limit` bytes (file-head.ts); `plainSize` and `limit` above 0. */
function decryptTargetHead(target: Target, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const { scope, item, plainSize } = target;
  return decryptHead(
    {
      id: item.id,
      key: itemKey(scope, item.id),
      fileNonce: fromBase64(item.fileNonce!, 'fileNonce'),
      plainSize,
      scope,
    },
    limit,
    thumbnailError,
  );
}

/**
 * The decrypted bytes of raster image `id` in `scope`, for the keyless image worker to make a
 * thumbnail of (workers/image.worker.ts); null when it is not one this makes thumbnails of (or
 * too large). Images from other users are decoded there, never here, where the keys live.
 */
async function thumbnailSource(scope: BrowseScope, id: string): Promise<Uint8Array | null> {
  const target = await loadTarget(scope, id);
  if (target?.kind !== 'image' || target.plainSize === 0 || target.plainSize > IMAGE_MAX_BYTES) return null;
  const bytes = await decryptTargetHead(target, target.plainSize);
  return isRasterImage(bytes) ? transfer(bytes, [bytes.buffer]) : null;
}

/** The decrypted start of video `id` in `scope` (at most `maxBytes`, whole chunks), or null for a non-video. */
async function videoHead(scope: BrowseScope, id: string, maxBytes: number): Promise<VideoHead | null> {
  const target = await loadTarget(scope, id);
  if (target?.kind !== 'video' || target.plainSize === 0) return null;
  const limit = Number.isFinite(maxBytes) ? Math.min(VIDEO_HEAD_BYTES * 2, Math.max(CHUNK, maxBytes)) : VIDEO_HEAD_BYTES;
  const bytes = await decryptTargetHead(target, limit);
  return transfer({ bytes, type: videoTypeOf(target.view) }, [bytes.buffer]);
}

/** The RPC surface (spread into the crypto worker's methods). */
export const thumbnailMethods = {
  thumbnailSource,
  videoHead,
};
