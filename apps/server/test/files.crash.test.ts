import { readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crashScenarios, type CrashBackend } from './files/crash-scenarios.ts';
import { diskBlobs, sqliteTruth } from './support/storage-truth.ts';

/**
 * The kill -9 scenarios of files/crash-scenarios.ts on a lone server over a temp DATA_DIR:
 * SQLite + disk blobs, inspected through the database file and the blob directory.
 */
crashScenarios('crash safety on SQLite + disk', async (dataDir): Promise<CrashBackend> => {
  const blobRoot = join(dataDir, 'blobs');
  return {
    env: {},
    sweepGraceMs: 0,
    // The on-disk truth, read beside the running server (WAL allows a second reader).
    inspect: async (userId) => sqliteTruth(dataDir, userId, { allItems: true }),
    blobs: () => diskBlobs(dataDir),
    async putBlob(key, bytes) {
      await mkdir(join(blobRoot, key.slice(0, 2)), { recursive: true });
      await writeFile(join(blobRoot, key.slice(0, 2), key), bytes);
    },
    async inFlightBytes() {
      const dir = join(blobRoot, '.tmp');
      const names = await readdir(dir).catch(() => [] as string[]);
      let total = 0;
      for (const name of names) total += (await stat(join(dir, name)).catch(() => ({ size: 0 }))).size;
      return total;
    },
    async cleanup() {},
  };
});
