/**
 * Grid thumbnails (SPEC 2 "previews of images and videos"): which items get one, and the page's
 * memory cache of the small encoded images the crypto worker makes (workers/thumbnails.ts).
 *
 * The cache holds Blobs of thumbnails (never of the decrypted file), keyed by item id +
 * modifiedAt, least recently used first out. Loads run at most CONCURRENCY at once; one still
 * queued is dropped when every card that asked for it has gone (scrolled away, folder left).
 */
import type { ItemView } from '../../workers/items.ts';

/** Plaintext size above which an image is not fetched for a thumbnail. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** How much of a video's start is decrypted for its poster frame. */
export const VIDEO_HEAD_BYTES = 8 * 1024 * 1024;
/** Longest edge of a thumbnail, in pixels. */
export const THUMB_EDGE = 320;
/** WebP quality of an encoded thumbnail (worker images and page-drawn video frames alike). */
export const THUMB_QUALITY = 0.82;
export const CACHE_ENTRIES = 200;
export const CONCURRENCY = 3;

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/x-ms-bmp']);
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp']);
const VIDEO_TYPES: Record<string, string> = { mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/mp4', webm: 'video/webm' };
const VIDEO_MIMES = new Set(['video/mp4', 'video/webm', 'video/quicktime']);

export type ThumbnailKind = 'image' | 'video';

/**
 * 'image' for raster images (png, jpeg, gif, webp, bmp) by mime type or extension, 'video' for
 * mp4, webm and mov; null for anything else. SVG never gets one (a type icon instead): it is
 * only ever shown through <img> in the previewer, never rasterised here.
 */
export function thumbnailKind(item: Pick<ItemView, 'isDirectory' | 'mimeType' | 'extension'>): ThumbnailKind | null {
  if (item.isDirectory) return null;
  const mime = (item.mimeType ?? '').toLowerCase().split(';')[0]!.trim();
  if (mime.includes('svg') || item.extension === 'svg' || item.extension === 'svgz') return null;
  if (IMAGE_MIMES.has(mime)) return 'image';
  if (VIDEO_MIMES.has(mime)) return 'video';
  if (IMAGE_EXTENSIONS.has(item.extension)) return 'image';
  if (item.extension in VIDEO_TYPES) return 'video';
  return null;
}

/** The type a video's bytes are given on the page (<video src> only). */
export function videoTypeOf(item: Pick<ItemView, 'mimeType' | 'extension'>): string {
  const mime = (item.mimeType ?? '').toLowerCase();
  if (mime === 'video/webm') return 'video/webm';
  return VIDEO_TYPES[item.extension] ?? 'video/mp4';
}

/** Whether a card should ask for a thumbnail at all. */
export function wantsThumbnail(item: ItemView): boolean {
  if (!item.decrypted || item.size <= 0) return false;
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

/** A Map in recency order: get() refreshes, set() evicts the oldest past `capacity`. */
export class LruCache<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  get(key: string): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key)!;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  clear(): void {
    this.#entries.clear();
  }
}

class AbortedError extends Error {
  constructor() {
    super('Thumbnail no longer wanted');
    this.name = 'AbortError';
  }
}

interface Job<V> {
  key: string;
  load: () => Promise<V>;
  waiters: number;
  started: boolean;
  promise: Promise<V>;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/**
 * Cached, de-duplicated loads with a concurrency limit. A load that resolves is cached (null
 * too: "this item has no thumbnail"); one that fails is not, so a later request tries again.
 */
export class ThumbnailLoader<V> {
  readonly cache: LruCache<V>;
  readonly #jobs = new Map<string, Job<V>>();
  readonly #queue: Job<V>[] = [];
  #running = 0;
  #peak = 0;

  constructor(capacity: number, readonly concurrency: number) {
    this.cache = new LruCache<V>(capacity);
  }

  /** Most loads that ever ran at once (for tests). */
  get peak(): number {
    return this.#peak;
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queue.length;
  }

  peek(key: string): V | undefined {
    return this.cache.get(key);
  }

  request(key: string, load: () => Promise<V>, signal?: AbortSignal): Promise<V> {
    if (this.cache.has(key)) return Promise.resolve(this.cache.get(key)!);
    if (signal?.aborted) return Promise.reject(new AbortedError());
    let job = this.#jobs.get(key);
    if (!job) {
      let resolve!: (value: V) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<V>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => {});
      job = { key, load, waiters: 0, started: false, promise, resolve, reject };
      this.#jobs.set(key, job);
      this.#queue.push(job);
    }
    const current = job;
    current.waiters++;
    if (!signal) {
      this.#pump();
      return current.promise;
    }
    const mine = new Promise<V>((resolve, reject) => {
      const onAbort = () => {
        current.waiters--;
        if (current.waiters === 0 && !current.started) {
          this.#queue.splice(this.#queue.indexOf(current), 1);
          this.#jobs.delete(current.key);
          current.reject(new AbortedError());
        }
        reject(new AbortedError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      current.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
    this.#pump();
    return mine;
  }

  #pump(): void {
    while (this.#running < this.concurrency && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      job.started = true;
      this.#running++;
      this.#peak = Math.max(this.#peak, this.#running);
      void (async () => {
        try {
          const value = await job.load();
          this.cache.set(job.key, value);
          job.resolve(value);
        } catch (error) {
          job.reject(error);
        } finally {
          this.#jobs.delete(job.key);
          this.#running--;
          this.#pump();
        }
      })();
    }
  }
}
