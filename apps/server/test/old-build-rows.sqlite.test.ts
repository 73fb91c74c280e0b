import { openSqliteDb } from '../src/infra/db/sqlite/open-sqlite-db.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { oldBuildRowsSuite } from './accounts/old-build-rows.suite.ts';

oldBuildRowsSuite('sqlite', async (events) => {
  const db = await openSqliteDb({ path: ':memory:', events, logger: silentLogger });
  return { db, cleanup: () => db.close() };
});
