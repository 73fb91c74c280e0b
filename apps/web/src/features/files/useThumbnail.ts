/**
 * The thumbnail of a grid card: asked for once the card comes near the viewport
 * (IntersectionObserver), decrypted in the crypto worker (workers/thumbnails.ts), made small in
 * the keyless image worker (workers/image.worker.ts), cached by the page
 * (thumbnail-cache.ts) and shown through a blob: URL of the small encoded image that lives as
 * long as the card does.
 *
 * Video poster frames: the worker decrypts the start of the file; here it becomes a blob: URL
 * of type video/* used only as the src of a detached, muted <video> (media-src blob:), one frame
 * is drawn to a canvas and encoded, and the URL is revoked. It is never opened as a page.
 */
import { useEffect, useState, type RefObject } from 'react';
import { cryptoWorker } from '../../crypto/client.ts';
import { whenFirstSeen } from '../../lib/first-seen.ts';
import { type BrowseScope, scopeName } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import { lazyWorker } from '../../lib/lazy-worker.ts';
import { transfer } from '../../lib/worker-rpc.ts';
import type { ImageMethods } from '../../workers/image.worker.ts';
import { onSignOut } from '../auth/index.ts';
import {
  THUMB_EDGE,
  THUMB_QUALITY,
  VIDEO_HEAD_BYTES,
  scaledSize,
  thumbnailKey,
  thumbnailKind,
  wantsThumbnail,
} from '../../model/thumbnails.ts';
import { CACHE_ENTRIES, CONCURRENCY, ThumbnailLoader } from './thumbnail-cache.ts';
import { useBrowseScope } from './scope-context.ts';

const loader = new ThumbnailLoader<Blob | null>(CACHE_ENTRIES, CONCURRENCY);

/** Drops every cached thumbnail: they show decrypted contents, so they go at sign-out. */
function forgetThumbnails(): void {
  loader.cache.clear();
}
onSignOut(forgetThumbnails);

const VIDEO_TIMEOUT_MS = 8_000;

function once(target: HTMLVideoElement, event: 'loadeddata' | 'seeked', ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${event} timed out`)), ms);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      target.removeEventListener(event, ok);
      target.removeEventListener('error', failed);
      if (error) reject(error);
      else resolve();
    };
    const ok = () => finish();
    const failed = () => finish(new Error('video did not decode'));
    target.addEventListener(event, ok);
    target.addEventListener('error', failed);
  });
}

function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/webp', THUMB_QUALITY));
}

/** One frame of a video's first bytes as a small image, or null when it does not decode. */
async function posterFrame(bytes: Uint8Array<ArrayBuffer>, type: string, maxEdge: number): Promise<Blob | null> {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  try {
    const loaded = once(video, 'loadeddata', VIDEO_TIMEOUT_MS);
    video.src = url;
    await loaded;
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (!width || !height) return null;
    const size = scaledSize(width, height, maxEdge);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    // The very first frame is often black: a moment in is a better likeness when it decodes.
    const later = Number.isFinite(video.duration) && video.duration > 0 ? Math.min(1, video.duration / 4) : 0;
    if (later > 0) {
      try {
        const seeked = once(video, 'seeked', 3_000);
        video.currentTime = later;
        await seeked;
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
      } catch {
        // Keep the first frame.
      }
    }
    return await canvasBlob(canvas);
  } catch {
    return null;
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/**
 * Decodes images in a worker of their own that holds no keys (workers/image.worker.ts): the
 * crypto worker only decrypts them.
 */
const imageWorker = lazyWorker<ImageMethods>(
  () => new Worker(new URL('../../workers/image.worker.ts', import.meta.url), { type: 'module', name: 'sealbox-images' }),
  'Image worker failed',
);

async function loadThumbnail(scope: BrowseScope, item: ItemView): Promise<Blob | null> {
  if (thumbnailKind(item) === 'video') {
    const head = await cryptoWorker.call('videoHead', scope, item.id, VIDEO_HEAD_BYTES);
    return head ? posterFrame(head.bytes as Uint8Array<ArrayBuffer>, head.type, THUMB_EDGE) : null;
  }
  const source = await cryptoWorker.call('thumbnailSource', scope, item.id);
  if (!source) return null;
  const made = await imageWorker.call('thumbnail', transfer(source, [source.buffer]), THUMB_EDGE);
  return made ? new Blob([made.bytes as Uint8Array<ArrayBuffer>], { type: made.type }) : null;
}

/**
 * A blob: URL of `item`'s thumbnail once `target` has been near the viewport and the thumbnail
 * is made; null while loading, and for items without one (the card shows its type icon).
 */
export function useThumbnail(item: ItemView, target: RefObject<Element | null>): string | null {
  const wanted = wantsThumbnail(item);
  const scope = useBrowseScope();
  // What a thumbnail shows depends on the key it was opened with: one per scope.
  const key = `${scopeName(scope)}|${thumbnailKey(item)}`;
  const [blob, setBlob] = useState<Blob | null>(() => (wanted ? (loader.peek(key) ?? null) : null));
  const [visible, setVisible] = useState(false);
  const [url, setUrl] = useState<string | null>(null);

  // Near the viewport (or no IntersectionObserver at all): from then on the card wants it.
  useEffect(() => {
    if (!wanted || visible) return;
    const element = target.current;
    if (!element) {
      setVisible(true);
      return;
    }
    return whenFirstSeen(element, { rootMargin: '200px' }, () => setVisible(true));
  }, [wanted, visible, target]);

  // `item` is captured for the load; the key (id + modifiedAt) decides when it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: item changes identity on every listing
  useEffect(() => {
    if (!wanted) {
      setBlob(null);
      return;
    }
    const cached = loader.peek(key);
    if (cached !== undefined) {
      setBlob(cached);
      return;
    }
    setBlob(null);
    if (!visible) return;
    const controller = new AbortController();
    loader
      .request(key, () => loadThumbnail(scope, item), controller.signal)
      .then(
        (made) => {
          if (!controller.signal.aborted) setBlob(made);
        },
        () => {
          // No thumbnail this time (the icon stays); a later mount tries again.
        },
      );
    return () => controller.abort();
  }, [wanted, key, visible]);

  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);

  return url;
}
