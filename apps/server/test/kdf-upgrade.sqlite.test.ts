import { openSqliteDb } from '../src/infra/db/sqlite/open-sqlite-db.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { kdfUpgradeSuite } from './kdf/kdf-upgrade.suite.ts';

kdfUpgradeSuite('sqlite', async (events) => {
  const db = await openSqliteDb({ path: ':memory:', events, logger: silentLogger });
  return { db, cleanup: () => db.close() };
});
