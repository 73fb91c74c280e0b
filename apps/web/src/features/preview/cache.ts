/**
 * docs/product.md "States": the previewer decrypts a file once, makes one object URL of it and
 * reuses both while the file stays cached. The cache lives as long as the previewer is open and is
 * bounded (the last few files, and a total size), so cycling through a folder of large files keeps
 * memory bounded: an evicted file's URL is revoked and its Blob dropped, and `clear()` (the
 * previewer closing) revokes every URL. The file in view is the most recently used and never
 * evicted.
 */

export const CACHE_MAX_FILES = 3;
export const CACHE_MAX_BYTES = 256 * 1024 * 1024;

export interface PreviewBytes {
  blob: () => Promise<Blob>;
  objectUrl: () => Promise<string>;
}

interface Entry {
  load: () => Promise<Blob>;
  blob?: Promise<Blob>;
  url?: Promise<string>;
  /** The URL once made (to revoke it). */
  made?: string;
  size: number;
  evicted: boolean;
}

export interface UrlApi {
  create: (blob: Blob) => string;
  revoke: (url: string) => void;
}

const platformUrls: UrlApi = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
};

export class PreviewCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxFiles = CACHE_MAX_FILES,
    private readonly maxBytes = CACHE_MAX_BYTES,
    private readonly urls: UrlApi = platformUrls,
  ) {}

  /** How many files are held (for tests). */
  get count(): number {
    return this.entries.size;
  }

  /**
   * The bytes of file `key`: `load` runs at most once while the file stays cached (a failed load
   * is forgotten, so opening the file again retries). Marks the file most recently used.
   */
  open(key: string, load: () => Promise<Blob>): PreviewBytes {
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    else entry = { load, size: 0, evicted: false };
    this.entries.set(key, entry);
    this.evict(key);
    const current = entry;
    const blob = (): Promise<Blob> => {
      if (current.evicted) return Promise.reject(new Error('This preview was closed'));
      current.blob ??= current.load().then(
        (value) => {
          current.size = value.size;
          this.evict(key);
          return value;
        },
        (error: unknown) => {
          if (this.entries.get(key) === current) this.entries.delete(key);
          throw error;
        },
      );
      return current.blob;
    };
    const objectUrl = (): Promise<string> => {
      current.url ??= blob().then((value) => {
        if (current.evicted) throw new Error('This preview was closed');
        current.made = this.urls.create(value);
        return current.made;
      });
      return current.url;
    };
    return { blob, objectUrl };
  }

  /** Drops the oldest files beyond the bounds, never `keep` (the file in view). */
  private evict(keep: string): void {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += entry.size;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxFiles && bytes <= this.maxBytes) break;
      if (key === keep) continue;
      bytes -= entry.size;
      this.drop(key, entry);
    }
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    entry.evicted = true;
    if (entry.made) this.urls.revoke(entry.made);
    entry.made = undefined;
    delete entry.blob;
    delete entry.url;
  }

  /** The previewer closed: every URL revoked, every Blob dropped. */
  clear(): void {
    for (const [key, entry] of [...this.entries]) this.drop(key, entry);
  }
}
