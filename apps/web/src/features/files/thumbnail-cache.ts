/**
 * Grid thumbnails (docs/product.md "Screens" "previews of images and videos"; which items get one:
 * model/thumbnails.ts): the page's memory cache of the small encoded images the crypto worker makes
 * (workers/thumbnails.ts).
 *
 * The cache holds Blobs of thumbnails (never of the decrypted file), keyed by item id +
 * modifiedAt, least recently used first out. Loads run at most CONCURRENCY at once; one still
 * queued is dropped when every card that asked for it has gone (scrolled away, folder left).
 */
export const CACHE_ENTRIES = 200;
export const CONCURRENCY = 3;

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

  constructor(
    capacity: number,
    readonly concurrency: number,
  ) {
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
