/**
 * The image worker: makes grid thumbnails of decrypted raster images (docs/web-files.md
 * "Thumbnails"). It holds no keys and imports nothing that does: an image decoder fed a file
 * another user chose runs here, so a flaw in it can reach nothing but the image it was given
 * (docs/protocol.md "Threat table", untrusted images).
 *
 * The bytes are checked against the raster formats first (SVG or anything else in disguise is
 * never decoded), decoded with createImageBitmap, scaled to the edge asked for and encoded as
 * WebP on an OffscreenCanvas.
 */
import { exposeRpc, transfer, type RpcEndpoint } from '../lib/worker-rpc.ts';
import { THUMB_QUALITY, isRasterImage, scaledSize } from '../model/thumbnails.ts';

export interface EncodedThumbnail {
  bytes: Uint8Array;
  /** Mime type of `bytes` (image/webp, or image/png where WebP encoding is missing). */
  type: string;
}

function clampEdge(maxEdge: number): number {
  return Number.isFinite(maxEdge) ? Math.min(1024, Math.max(16, Math.round(maxEdge))) : 320;
}

async function encode(bitmap: ImageBitmap, maxEdge: number): Promise<EncodedThumbnail | null> {
  const size = scaledSize(bitmap.width, bitmap.height, maxEdge);
  const small =
    size.width === bitmap.width && size.height === bitmap.height
      ? bitmap
      : await createImageBitmap(bitmap, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
  try {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(small, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/webp', quality: THUMB_QUALITY });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return transfer({ bytes, type: blob.type || 'image/png' }, [bytes.buffer]);
  } finally {
    if (small !== bitmap) small.close();
  }
}

export const imageMethods = {
  /**
   * A thumbnail of a raster image with its longest edge at most `maxEdge` px, or null when the
   * bytes are not a raster image or do not decode.
   */
  async thumbnail(bytes: Uint8Array, maxEdge: number): Promise<EncodedThumbnail | null> {
    if (!(bytes instanceof Uint8Array) || !isRasterImage(bytes)) return null;
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    } catch {
      return null;
    }
    try {
      if (bitmap.width === 0 || bitmap.height === 0) return null;
      return await encode(bitmap, clampEdge(maxEdge));
    } finally {
      bitmap.close();
    }
  },
};

export type ImageMethods = typeof imageMethods;

exposeRpc(imageMethods, self as unknown as RpcEndpoint);
