import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from '../../ports/blob-store.ts';
import { assertBlobKey, assertBlobPrefix, checkRange, chunksOf, notFound } from './blob-key.ts';

/** Holds writes in progress; keys cannot contain dots, so it never collides with a shard. */
const TEMP_DIR = '.tmp';
/** Ciphertext, but still nobody else's business: directories 0700, files 0600 (docs/operations.md). */
const PRIVATE_DIR = { recursive: true, mode: 0o700 } as const;

export interface DiskBlobStore extends BlobStore {
  /** Removes temp files left by a crash. Run once at start, before serving. */
  sweepTemp(): Promise<number>;
}

/**
 * Blobs as files under root/<first two key chars>/<key>. A put writes a temp file in the same
 * tree (same filesystem, so rename is atomic), fsyncs it, renames it into place and fsyncs the
 * directory: after a crash a key holds either its old content, its new content or nothing.
 */
export function createDiskBlobStore(root: string): DiskBlobStore {
  const tempDir = join(root, TEMP_DIR);
  const shardOf = (key: string) => join(root, key.slice(0, 2));
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(shardOf(key), key);
  };

  async function sizeOrNull(path: string): Promise<number | null> {
    try {
      const info = await stat(path);
      return info.isFile() ? info.size : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    async put(key, body) {
      const finalPath = pathOf(key);
      await mkdir(tempDir, PRIVATE_DIR);
      // A new shard directory must itself be durable, or the rename below could vanish with it.
      if (await mkdir(shardOf(key), PRIVATE_DIR)) await fsyncDirectory(root);
      const tempPath = join(tempDir, `${key}.${randomUUID()}`);
      const file = await open(tempPath, 'wx', 0o600);
      let size = 0;
      try {
        for await (const chunk of chunksOf(body)) {
          let offset = 0;
          while (offset < chunk.byteLength) {
            const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset);
            offset += bytesWritten;
          }
          size += chunk.byteLength;
        }
        await file.sync();
        await file.close();
        await rename(tempPath, finalPath);
      } catch (error) {
        await file.close().catch(() => {});
        await rm(tempPath, { force: true });
        throw error;
      }
      await fsyncDirectory(shardOf(key));
      return { size };
    },

    async get(key, range) {
      const path = pathOf(key);
      const size = await sizeOrNull(path);
      if (size === null) throw notFound();
      const file = Bun.file(path);
      if (!range) return file.stream();
      const { start, endExclusive } = checkRange(range, size);
      return file.slice(start, endExclusive).stream();
    },

    async size(key) {
      const size = await sizeOrNull(pathOf(key));
      if (size === null) throw notFound();
      return size;
    },

    async exists(key) {
      return (await sizeOrNull(pathOf(key))) !== null;
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },

    async *list(prefix = '') {
      assertBlobPrefix(prefix);
      let shards: string[];
      try {
        shards = await readdir(root);
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const shard of shards.sort()) {
        if (shard === TEMP_DIR) continue;
        // A key's shard is its first two characters, so most shards can be skipped unread.
        const common = Math.min(2, prefix.length);
        if (shard.slice(0, common) !== prefix.slice(0, common)) continue;
        let names: string[];
        try {
          names = await readdir(join(root, shard));
        } catch (error) {
          if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') continue;
          throw error;
        }
        for (const name of names.sort()) if (name.startsWith(prefix)) yield name;
      }
    },

    async health() {
      await mkdir(tempDir, PRIVATE_DIR);
      const probe = join(tempDir, `health.${randomUUID()}`);
      await writeFile(probe, 'ok', { mode: 0o600 });
      await rm(probe, { force: true });
    },

    async sweepTemp() {
      let names: string[];
      try {
        names = await readdir(tempDir);
      } catch (error) {
        if (isMissing(error)) return 0;
        throw error;
      }
      await Promise.all(names.map((name) => rm(join(tempDir, name), { force: true, recursive: true })));
      return names.length;
    },
  };
}

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
