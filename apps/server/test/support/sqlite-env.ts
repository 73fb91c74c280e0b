import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDiskBlobStore } from '../../src/infra/blobs/disk-blob-store.ts';
import { openSqliteDb } from '../../src/infra/db/sqlite/open-sqlite-db.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import type { EventBus } from '../../src/ports/event-bus.ts';

/** A fresh SQLite database and disk blob store in a temp directory, removed on cleanup. */
export async function sqliteDiskEnv(events: EventBus, prefix = 'sealbox-files-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const db = await openSqliteDb({ path: join(dir, 'sealbox.db'), events, logger: silentLogger });
  return {
    db,
    blobs: createDiskBlobStore(join(dir, 'blobs')),
    async cleanup() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
