import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesStoreContracts } from '../../../../test/contracts/files/index.ts';
import { silentLogger } from '../../log/json-logger.ts';
import { openSqliteDb } from '../sqlite/open-sqlite-db.ts';

filesStoreContracts('sqlite', async (events) => {
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-files-store-'));
  const db = await openSqliteDb({ path: join(dir, 'sealbox.db'), events, logger: silentLogger });
  return {
    db,
    async cleanup() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
