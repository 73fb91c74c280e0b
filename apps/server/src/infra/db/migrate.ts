import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Logger } from '../../ports/logger.ts';
import { migrationProvider } from './migrations/index.ts';

/**
 * Applies pending migrations; safe to call on every start and from several instances at once.
 * Logs one line per migration applied and a summary, so an administrator sees what a start did.
 */
export async function migrateToLatest(kysely: Kysely<any>, logger?: Logger): Promise<string[]> {
  const migrationTableSchema = await postgresSchema(kysely);
  const migrator = new Migrator({
    db: kysely,
    provider: migrationProvider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await pastCatalogRaces(async () => {
    const result = await migrator.migrateToLatest();
    if (result.error && isCatalogRace(result.error)) throw result.error;
    return result;
  });
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    logger?.error('migration failed', { migration: failed });
    throw new Error(`Database migration ${failed} failed`, { cause: error });
  }
  // Only now: on PostgreSQL a failure rolls back the ones before it in the same transaction.
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  for (const migration of applied) logger?.info('migration applied', { migration });
  const executed = (await pastCatalogRaces(() => migrator.getMigrations())).filter((m) => m.executedAt !== undefined);
  logger?.info('migrations', { applied: applied.length, latest: executed.at(-1)?.name ?? null });
  return applied;
}

/**
 * Kysely looks for its own tables by reading every table of every schema in the database; a schema
 * that another client drops during that read fails it with "schema … does not exist" (3F000) or
 * "relation … does not exist" (42P01), though nothing of ours is missing and nothing was applied.
 * Several suites share one test database that way, and so may a server that shares its database.
 * Asking again is safe: each migration runs once, in its transaction, under Kysely's lock.
 */
const CATALOG_RETRIES = 8;

function isCatalogRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '3F000' || code === '42P01';
}

/** `read`, asked again (a little later each time) while it fails for a catalog race only. */
async function pastCatalogRaces<T>(read: () => Promise<T>): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await read();
    } catch (error) {
      if (retry > CATALOG_RETRIES || !isCatalogRace(error)) throw error;
      await Bun.sleep(25 * retry);
    }
  }
}

/**
 * Kysely decides whether its migration tables exist by looking in every schema unless told
 * which one; a second Sealbox (or a test suite) in another schema of the same database would
 * make it skip creating its own and fail. Name the schema the tables really go to.
 */
async function postgresSchema(kysely: Kysely<any>): Promise<string | undefined> {
  if (!(kysely.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(kysely);
  return rows[0]?.schema ?? undefined;
}
