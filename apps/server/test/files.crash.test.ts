import { Database } from 'bun:sqlite';
import { readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crashScenarios, type CrashBackend } from './files/crash-scenarios.ts';

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
    async inspect(userId) {
      const db = new Database(join(dataDir, 'sealbox.db'), { readonly: true });
      try {
        const user = db.query('select used_space, reserved_space from users where id = ?').get(userId) as {
          used_space: number;
          reserved_space: number;
        };
        const stored = db
          .query(
            'select coalesce(sum(p.size), 0) as total from item_parts p join items i on i.id = p.item_id where i.owner_id = ?',
          )
          .get(userId) as { total: number };
        const reservedByUploads = db
          .query(
            'select coalesce(sum(u.reserved_remaining), 0) as total from uploads u join items i on i.id = u.item_id where i.owner_id = ?',
          )
          .get(userId) as { total: number };
        const named = (db.query('select blob_key from item_parts').all() as Array<{ blob_key: string }>)
          .map((r) => r.blob_key)
          .sort();
        const items = db.query('select id, state from items').all() as Array<{ id: string; state: string }>;
        return {
          used: user.used_space,
          reserved: user.reserved_space,
          stored: stored.total,
          reservedByUploads: reservedByUploads.total,
          named,
          items,
        };
      } finally {
        db.close();
      }
    },
    async blobs() {
      const keys: string[] = [];
      for (const shard of await readdir(blobRoot).catch(() => [] as string[])) {
        if (shard === '.tmp') continue;
        for (const name of await readdir(join(blobRoot, shard))) if (name.startsWith('part-')) keys.push(name);
      }
      return { keys: keys.sort(), temp: await readdir(join(blobRoot, '.tmp')).catch(() => []) };
    },
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
