import { sql, type Kysely } from 'kysely';
import type { Database, Db, DbTransaction, SqlDialect } from '../../ports/db.ts';
import type { EventBus } from '../../ports/event-bus.ts';
import type { Logger } from '../../ports/logger.ts';
import { migrateToLatest } from './migrate.ts';
import { testPauser, type TestPause } from './test-pause.ts';

type AfterCommitJob = () => void | Promise<void>;

type KyselyDbOptions = Parameters<typeof createKyselyDb>[0];

/** Brings the schema up to date, then makes the Db; a failed migration closes the connection. */
export async function openMigratedDb(options: KyselyDbOptions): Promise<Db> {
  try {
    await migrateToLatest(options.kysely, options.logger);
  } catch (error) {
    await options.kysely.destroy();
    throw error;
  }
  return createKyselyDb(options);
}

/** The dialect-independent half of a Db: transactions with deferred events, health, close. */
export function createKyselyDb(options: {
  kysely: Kysely<Database>;
  dialect: SqlDialect;
  events: EventBus;
  logger: Logger;
  /** Test-only (test-pause.ts): undefined in every real deployment. */
  testPause?: TestPause | undefined;
}): Db {
  const { kysely, dialect, events, logger } = options;
  const pauser = testPauser(options.testPause, (message, fields) => logger.warn(message, fields));
  let closed = false;
  return {
    kysely,
    dialect,
    async transaction<T>(fn: (tx: DbTransaction) => Promise<T>): Promise<T> {
      const jobs: AfterCommitJob[] = [];
      const kinds: string[] = [];
      let open = true;
      let paused = false;
      const queue = (job: AfterCommitJob) => {
        // A job queued after the transaction ended would silently never run.
        if (!open) throw new Error('Transaction already finished');
        jobs.push(job);
      };
      let result: T;
      try {
        result = await kysely.transaction().execute(async (trx) => {
          const value = await fn({
            kysely: trx,
            publish: (event) => {
              queue(() => events.publish(event));
              kinds.push(event.kind);
            },
            afterCommit: queue,
          });
          paused = pauser.chosen(kinds);
          if (paused) await pauser.at('before-commit');
          return value;
        });
      } finally {
        open = false;
      }
      if (paused) await pauser.at('after-commit');
      // The commit has happened: a failing job must not make the caller think it did not.
      for (const job of jobs) {
        try {
          await job();
        } catch (error) {
          logger.error('after-commit job failed', { error: errorName(error) });
        }
      }
      return result;
    },
    async health() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      if (closed) return;
      closed = true;
      await kysely.destroy();
    },
  };
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
