/**
 * A zip download's entries as columns (docs/web-files.md "Downloads"): one array per field, not
 * an object per entry. An entry object with its own key and nonce arrays cost about 1 KiB in the
 * crypto worker that gathers it and again in the service worker that writes it (a folder of
 * 10,000 files grew the tab's heaps by 37 MiB, bench/big-account); as columns it is its path, its
 * id and 60 bytes. The typed arrays are transferred to the service worker, not copied, so the
 * crypto worker keeps nothing of them.
 */
import { KEY_BYTES, NONCE_BYTES } from '@sealbox/crypto';

/** Per entry in `secrets`: the file's key, then its file nonce. */
export const SECRET_BYTES = KEY_BYTES + NONCE_BYTES;

export interface ZipColumns {
  count: number;
  /** The entry's path in the archive. */
  paths: string[];
  /** The file's id; '' for a folder. */
  ids: string[];
  /** The file's plaintext size; -1 for a folder. */
  sizes: Float64Array;
  /** SECRET_BYTES per entry (zeros for a folder). */
  secrets: Uint8Array;
}

/** Whether `columns` came whole: every array as long as its entries (the service worker refuses a job that is not). */
export function columnsFit(columns: ZipColumns): boolean {
  const { count, paths, ids, sizes, secrets } = columns;
  return (
    Number.isSafeInteger(count) &&
    count >= 0 &&
    Array.isArray(paths) &&
    Array.isArray(ids) &&
    paths.length === count &&
    ids.length === count &&
    sizes instanceof Float64Array &&
    sizes.length === count &&
    secrets instanceof Uint8Array &&
    secrets.length === count * SECRET_BYTES
  );
}

/** Entry `index` of `columns` as a file: its id, size, and views of its key and nonce (not copies: wiping them wipes the column). */
export function columnFile(columns: ZipColumns, index: number) {
  const at = index * SECRET_BYTES;
  return {
    id: columns.ids[index]!,
    size: columns.sizes[index]!,
    key: columns.secrets.subarray(at, at + KEY_BYTES),
    fileNonce: columns.secrets.subarray(at + KEY_BYTES, at + SECRET_BYTES),
  };
}

/** The columns as a zip's plan reads them (workers/zip.ts ZipSource): a size of -1 is a folder. */
export function columnsSource(columns: ZipColumns) {
  return {
    count: columns.count,
    path: (index: number) => columns.paths[index]!,
    size: (index: number) => {
      const size = columns.sizes[index]!;
      return size < 0 ? null : size;
    },
  };
}

/** Columns filled an entry at a time, their arrays doubled as they fill. */
export class ZipColumnsBuilder {
  private columns: ZipColumns = {
    count: 0,
    paths: [],
    ids: [],
    sizes: new Float64Array(64),
    secrets: new Uint8Array(64 * SECRET_BYTES),
  };

  addDir(path: string): void {
    this.add(path, '', -1);
  }

  /** `key` and `fileNonce` are copied in; the caller wipes its own. */
  addFile(path: string, id: string, key: Uint8Array, fileNonce: Uint8Array, size: number): void {
    const at = this.add(path, id, size) * SECRET_BYTES;
    this.columns.secrets.set(key.subarray(0, KEY_BYTES), at);
    this.columns.secrets.set(fileNonce.subarray(0, NONCE_BYTES), at + KEY_BYTES);
  }

  get count(): number {
    return this.columns.count;
  }

  /** The columns as filled so far, their arrays cut to the entries (the spare room wiped and let go). */
  finish(): ZipColumns {
    const c = this.columns;
    if (c.sizes.length > c.count) {
      const secrets = c.secrets.slice(0, c.count * SECRET_BYTES);
      c.secrets.fill(0);
      this.columns = { ...c, sizes: c.sizes.slice(0, c.count), secrets };
    }
    return this.columns;
  }

  private add(path: string, id: string, size: number): number {
    const c = this.columns;
    if (c.count === c.sizes.length) {
      const sizes = new Float64Array(c.sizes.length * 2);
      sizes.set(c.sizes);
      const secrets = new Uint8Array(c.secrets.length * 2);
      secrets.set(c.secrets);
      c.secrets.fill(0);
      c.sizes = sizes;
      c.secrets = secrets;
    }
    c.paths.push(path);
    c.ids.push(id);
    c.sizes[c.count] = size;
    return c.count++;
  }
}
