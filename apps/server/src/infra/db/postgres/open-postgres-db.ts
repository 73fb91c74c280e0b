import { Kysely } from 'kysely';
import { PostgresJSDialect } from 'kysely-postgres-js';
import postgres from 'postgres';
import type { Database, Db } from '../../../ports/db.ts';
import type { EventBus } from '../../../ports/event-bus.ts';
import type { Logger } from '../../../ports/logger.ts';
import { withNormalisedErrors } from '../error-normalising-dialect.ts';
import { openMigratedDb } from '../kysely-db.ts';
import type { TestPause } from '../test-pause.ts';

const INT8_OID = 20;

/**
 * postgres.js returns BIGINT as a string so as not to lose precision; sizes and epoch-ms times
 * stay far below 2^53, and SQLite returns numbers, so both dialects agree on numbers.
 */
export const bigintAsNumber = {
  to: INT8_OID,
  from: [INT8_OID],
  serialize: (value: number | bigint) => String(value),
  parse: (value: string) => Number(value),
};

export interface PostgresClientOptions {
  max?: number;
  applicationName?: string;
  /** Lets tests give each suite its own schema in one database. */
  searchPath?: string;
}

export function createPostgresClient(url: string, options: PostgresClientOptions = {}) {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    types: { bigint: bigintAsNumber },
    connection: {
      application_name: options.applicationName ?? 'sealbox',
      ...(options.searchPath ? { search_path: options.searchPath } : {}),
    },
  });
}

export async function openPostgresDb(
  options: { url: string; events: EventBus; logger: Logger; testPause?: TestPause | undefined } & PostgresClientOptions,
): Promise<Db> {
  const client = createPostgresClient(options.url, options);
  const kysely = new Kysely<Database>({
    dialect: withNormalisedErrors(new PostgresJSDialect({ postgres: client })),
  });
  return openMigratedDb({
    kysely,
    dialect: 'postgres',
    events: options.events,
    logger: options.logger,
    testPause: options.testPause,
  });
}
