import { describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { dbContract } from './contracts/db.contract.ts';
import { postgresAvailability, reportUnavailable, TEST_DATABASE_URL, uniqueIdentifier } from './support/services.ts';
import { openPostgresDb } from '../src/infra/db/postgres/open-postgres-db.ts';
import { migrateToLatest } from '../src/infra/db/migrate.ts';
import { createMemoryEventBus } from '../src/infra/events/memory-event-bus.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';

const availability = await postgresAvailability();

/** Each database gets its own schema, so suites can run side by side in one test database. */
async function withSchema() {
  const schema = uniqueIdentifier('sealbox_test');
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema ${schema}`);
  return {
    schema,
    async drop() {
      await admin.unsafe(`drop schema ${schema} cascade`);
      await admin.end({ timeout: 5 });
    },
  };
}

if (availability.available) {
  dbContract('postgres', async (events) => {
    const { schema, drop } = await withSchema();
    const db = await openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max: 4 });
    return {
      db,
      async cleanup() {
        await db.close();
        await drop();
      },
    };
  });

  describe('postgres adapter', () => {
    test('migrating while other clients create and drop schemas of their own succeeds', async () => {
      // Kysely reads every schema's tables to find its own: a schema dropped during that read
      // once failed a suite here ("schema … does not exist"). Churn schemas meanwhile, bounded.
      const admin = postgres(TEST_DATABASE_URL, { max: 2, onnotice: () => {} });
      let churning = true;
      const churn = (async () => {
        for (let i = 0; churning && i < 400; i++) {
          const other = uniqueIdentifier('sealbox_churn');
          await admin.unsafe(`create schema ${other}; create table ${other}.t (id int); create table ${other}.u (id int)`);
          await admin.unsafe(`drop schema ${other} cascade`);
          // As suites end beside each other: often, not back to back.
          await Bun.sleep(5);
        }
      })();
      const events = createMemoryEventBus(silentLogger);
      try {
        for (let round = 0; round < 4; round++) {
          const { schema, drop } = await withSchema();
          const db = await openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max: 2 });
          expect(await migrateToLatest(db.kysely)).toEqual([]);
          await db.close();
          await drop();
        }
      } finally {
        churning = false;
        await churn;
        await admin.end({ timeout: 5 });
      }
    }, 60_000);

    test('two instances migrating the same schema at once both succeed', async () => {
      const { schema, drop } = await withSchema();
      const events = createMemoryEventBus(silentLogger);
      try {
        const [a, b] = await Promise.all([
          openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max: 2 }),
          openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max: 2 }),
        ]);
        expect(await migrateToLatest(a.kysely)).toEqual([]);
        await a.close();
        await b.close();
      } finally {
        await drop();
      }
    });
  });
} else {
  reportUnavailable('Db contract: postgres', availability.reason);
}
