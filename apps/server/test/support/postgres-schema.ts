/**
 * A database of its own for one PostgreSQL harness: a fresh schema in the test database, so
 * suites run side by side, dropped again by `cleanup`.
 */
import postgres from 'postgres';
import type { EventBus } from '../../src/ports/event-bus.ts';
import type { Db } from '../../src/ports/db.ts';
import { openPostgresDb } from '../../src/infra/db/postgres/open-postgres-db.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import { TEST_DATABASE_URL, uniqueIdentifier } from './services.ts';

export async function throwawayPostgres(
  prefix: string,
  events: EventBus,
  max = 4,
): Promise<{ db: Db; schema: string; cleanup(): Promise<void> }> {
  const schema = uniqueIdentifier(prefix);
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema ${schema}`);
  const db = await openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max });
  return {
    db,
    schema,
    async cleanup() {
      await db.close();
      await admin.unsafe(`drop schema ${schema} cascade`);
      await admin.end({ timeout: 5 });
    },
  };
}
