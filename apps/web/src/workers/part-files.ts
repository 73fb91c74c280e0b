/**
 * Where an upload part's ciphertext waits while it is sent (crypto worker only).
 *
 * Chromium keeps a copy of every ArrayBuffer request body in the renderer for the life of the
 * process (fetch and XHR alike, GC or not: 1 GiB uploaded = 1 GiB held), and a Blob built from
 * memory moves the bytes to the browser process, where they stay until the worker's GC collects
 * the Blob (+1 GiB there instead); see docs/benchmarks.md "bench/transfer". A File read from
 * the origin-private file system is sent the way a picked file is, straight from disk, so parts
 * are written to a few reusable OPFS files: only ciphertext touches the disk, and memory stays
 * flat. Without OPFS (or if it fails to open) parts go as ArrayBuffers, as before.
 */

/** The parts of FileSystemSyncAccessHandle used here (the app's TypeScript lib is DOM, not WebWorker). */
interface SyncAccessHandle {
  write(buffer: Uint8Array<ArrayBuffer>, options: { at: number }): number;
  truncate(size: number): void;
  close(): void;
}
type SyncFileHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> };

const DIRECTORY = 'sealbox-upload-parts';
/** Slot files untouched this long belong to no running upload (the server expires those after 24 h). */
const STALE_MS = 24 * 60 * 60 * 1000;

export interface PartSlot {
  /** Appends ciphertext to the part being filled. */
  write(bytes: Uint8Array<ArrayBuffer>): void;
  /** Ends the part: the body to send. The slot stays taken until `release`. */
  finish(): Promise<Blob | Uint8Array<ArrayBuffer>>;
  /** The part is stored (or given up): the slot may be filled again. */
  release(): void;
}

export interface PartFiles {
  /** A free slot (the caller keeps at most `slots` taken). */
  take(length: number): Promise<PartSlot>;
  /** Closes and deletes the slot files. */
  dispose(): Promise<void>;
  readonly kind: 'opfs' | 'memory';
}

/** Parts in memory: one buffer per part (the fallback). */
function memoryParts(): PartFiles {
  return {
    kind: 'memory',
    async take(length) {
      const buffer = new Uint8Array(length);
      let fill = 0;
      return {
        write(bytes) {
          buffer.set(bytes, fill);
          fill += bytes.length;
        },
        async finish() {
          return fill === length ? buffer : buffer.subarray(0, fill);
        },
        release() {},
      };
    },
    async dispose() {},
  };
}

/**
 * Slot files are named `<base-36 creation time>-<uploadId>-<slot>`, so staleness is read from the
 * name: opening a file to look at it would take a lock that makes a running upload's
 * createSyncAccessHandle fail (seen as an upload stuck in CI). Names without a time are leftovers
 * of an older build and go too; removing a file another tab holds open fails harmlessly.
 */
async function sweepStale(directory: FileSystemDirectoryHandle): Promise<void> {
  const names = (directory as unknown as { keys(): AsyncIterable<string> }).keys();
  for await (const name of names) {
    const created = Number.parseInt(name.split('-')[0] ?? '', 36);
    const age = Date.now() - created;
    // Not a time of this build's making (NaN, or an id read as base 36): an old leftover as well.
    const stale = !(age >= -STALE_MS && age <= STALE_MS);
    if (stale) await directory.removeEntry(name).catch(() => {});
  }
}

async function opfsParts(uploadId: string, slots: number): Promise<PartFiles> {
  const root = await navigator.storage.getDirectory();
  const directory = await root.getDirectoryHandle(DIRECTORY, { create: true });
  void sweepStale(directory).catch(() => {});
  const created = Date.now().toString(36);
  const names = Array.from({ length: slots }, (_, i) => `${created}-${uploadId}-${i}`);
  const handles = await Promise.all(
    names.map((name) => directory.getFileHandle(name, { create: true }) as Promise<SyncFileHandle>),
  );
  // Proves sync access works here before any part depends on it.
  (await handles[0]!.createSyncAccessHandle()).close();
  const free = handles.map((_, i) => i);
  const open = new Set<SyncAccessHandle>();
  return {
    kind: 'opfs',
    async take() {
      const index = free.pop();
      if (index === undefined) throw new Error('no free part slot');
      const handle = handles[index]!;
      const access = await handle.createSyncAccessHandle();
      open.add(access);
      let fill = 0;
      return {
        write(bytes) {
          const written = access.write(bytes, { at: fill });
          if (written !== bytes.length) throw new Error('part file write was short');
          fill += written;
        },
        async finish() {
          // What a longer part left in the slot must not be sent.
          access.truncate(fill);
          access.close();
          open.delete(access);
          return handle.getFile();
        },
        release() {
          free.push(index);
        },
      };
    },
    async dispose() {
      for (const access of open) access.close();
      open.clear();
      await Promise.all(names.map((name) => directory.removeEntry(name).catch(() => {})));
    },
  };
}

/** Slot files for one upload; memory when the origin-private file system is unavailable. */
export async function openPartFiles(uploadId: string, slots: number): Promise<PartFiles> {
  try {
    if (!navigator.storage?.getDirectory) return memoryParts();
    return await opfsParts(uploadId, slots);
  } catch {
    return memoryParts();
  }
}
