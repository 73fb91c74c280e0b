import { Database as BunDatabase } from 'bun:sqlite';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database, Db } from '../../../ports/db.ts';
import type { EventBus } from '../../../ports/event-bus.ts';
import type { Logger } from '../../../ports/logger.ts';
import { withNormalisedErrors } from '../error-normalising-dialect.ts';
import { openMigratedDb } from '../kysely-db.ts';
import type { TestPause } from '../test-pause.ts';
import { asKyselySqliteDatabase } from './bun-sqlite-database.ts';

/**
 * The database holds login verifiers, TOTP secrets and sealed key bundles: only the server's
 * user may read it. SQLite gives its -wal and -shm files the database file's mode; those left
 * by an older build are tightened too.
 */
function makePrivate(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

/** Opens (creating if needed) and migrates a SQLite database; ':memory:' works for tests. */
export async function openSqliteDb(options: {
  path: string;
  events: EventBus;
  logger: Logger;
  testPause?: TestPause | undefined;
}): Promise<Db> {
  if (options.path !== ':memory:') makePrivate(options.path);
  const raw = new BunDatabase(options.path, { create: true, strict: true });
  // WAL lets readers proceed during a write; foreign keys are off by default in SQLite;
  // busy_timeout makes a second process (a CLI, a backup) wait instead of failing at once.
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA busy_timeout = 5000');
  raw.exec('PRAGMA synchronous = NORMAL');
  // The default 2 MiB page cache cannot hold the rows of one large folder (10,000 items are
  // about 3.5 MiB), so every whole-folder listing read them again from the OS (bench/listing).
  raw.exec('PRAGMA cache_size = -32768');
  const kysely = new Kysely<Database>({
    dialect: withNormalisedErrors(new SqliteDialect({ database: asKyselySqliteDatabase(raw) })),
  });
  const db = await openMigratedDb({
    kysely,
    dialect: 'sqlite',
    events: options.events,
    logger: options.logger,
    testPause: options.testPause,
  });
  const stopOptimizing = keepStatistics(raw, options.logger);
  return {
    ...db,
    async close() {
      stopOptimizing();
      await db.close();
    },
  };
}

const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/**
 * SQLite plans with table statistics only once ANALYZE has run. Without them, a deep listing's
 * children-of-many-folders query ran on an index matching every row of the owner: 10-17 s for
 * a tree of 100,000 items, 1.4 s after one ANALYZE (docs/benchmarks.md "bench/search").
 * `PRAGMA optimize` analyzes only tables that changed enough, each bounded by analysis_limit;
 * at open and then hourly, as SQLite advises for long-lived connections.
 */
function keepStatistics(raw: BunDatabase, logger: Logger): () => void {
  const optimize = () => {
    try {
      raw.exec('PRAGMA analysis_limit = 1000');
      raw.exec('PRAGMA optimize = 0x10002');
    } catch (error) {
      logger.warn('sqlite optimize failed', { error: String(error) });
    }
  };
  optimize();
  const timer = setInterval(optimize, OPTIMIZE_EVERY_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
