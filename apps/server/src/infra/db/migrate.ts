import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from './migrations/index.ts';

/** Applies pending migrations; safe to call on every start and from several instances at once. */
export async function migrateToLatest(kysely: Kysely<any>): Promise<string[]> {
  const migrationTableSchema = await postgresSchema(kysely);
  const migrator = new Migrator({
    db: kysely,
    provider: migrationProvider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
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
