import postgres from 'postgres';
import { openPostgresDb } from '../src/infra/db/postgres/open-postgres-db.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { kdfUpgradeSuite } from './kdf/kdf-upgrade.suite.ts';
import { postgresAvailability, reportUnavailable, TEST_DATABASE_URL, uniqueIdentifier } from './support/services.ts';

const availability = await postgresAvailability();

if (availability.available) {
  kdfUpgradeSuite('postgres', async (events) => {
    const schema = uniqueIdentifier('sealbox_kdf');
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create schema ${schema}`);
    const db = await openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max: 4 });
    return {
      db,
      async cleanup() {
        await db.close();
        await admin.unsafe(`drop schema ${schema} cascade`);
        await admin.end({ timeout: 5 });
      },
    };
  });
} else {
  reportUnavailable('PUT /api/account/kdf: postgres', availability.reason);
}
