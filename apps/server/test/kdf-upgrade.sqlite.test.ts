import { openSqliteDb } from '../src/infra/db/sqlite/open-sqlite-db.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import type { MakeDb } from './accounts/harness.ts';
import { kdfUpgradeSuite } from './kdf/kdf-upgrade.suite.ts';
import { passwordChangeSuite } from './kdf/password-change.suite.ts';
import { recoverySuite } from './kdf/recovery.suite.ts';

const memoryDb: MakeDb = async (events) => {
  const db = await openSqliteDb({ path: ':memory:', events, logger: silentLogger });
  return { db, cleanup: () => db.close() };
};
kdfUpgradeSuite('sqlite', memoryDb);
passwordChangeSuite('sqlite', memoryDb);
recoverySuite('sqlite', memoryDb);
