import { describe, test } from 'bun:test';
import postgres from 'postgres';

/**
 * Suites for PostgreSQL and S3 run whenever the service is reachable. In CI (CI=true) or with
 * SEALBOX_REQUIRE_SERVICES=1 an unreachable service fails the run instead of skipping it.
 */
export const servicesRequired = process.env.CI === 'true' || process.env.SEALBOX_REQUIRE_SERVICES === '1';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sealbox:sealbox@127.0.0.1:5432/sealbox_test';

export type Availability = { available: true } | { available: false; reason: string };

export async function postgresAvailability(url = TEST_DATABASE_URL): Promise<Availability> {
  // A missing server refuses at once; the timeout only stops a hang, so a busy machine's slow
  // accept does not turn into "unreachable" (a failure where services are required).
  const sql = postgres(url, { max: 1, connect_timeout: 15, onnotice: () => {} });
  try {
    await sql`select 1`;
    return { available: true };
  } catch (error) {
    return { available: false, reason: `PostgreSQL at ${redact(url)} unreachable: ${(error as Error).message}` };
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Declares what happens to a suite whose service is missing: a failing test or a loud skip. */
export function reportUnavailable(suite: string, reason: string): void {
  if (servicesRequired) {
    describe(suite, () => {
      test('service is reachable (required by CI / SEALBOX_REQUIRE_SERVICES)', () => {
        throw new Error(`${suite}: ${reason}`);
      });
    });
    return;
  }
  console.warn(`[skip] ${suite}: ${reason}. Set SEALBOX_REQUIRE_SERVICES=1 to make this a failure.`);
  describe.skip(suite, () => {
    test('skipped: service unreachable', () => {});
  });
}

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}

/** A Postgres identifier unique to this run, safe to interpolate. */
export function uniqueIdentifier(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

export interface ThrowawayDatabase {
  /** The database's name (a unique identifier, safe to interpolate). */
  name: string;
  /** TEST_DATABASE_URL pointed at the new database. */
  url: string;
  /** One connection to the server's default database, for statements about this one. */
  admin: postgres.Sql;
  /** Drops the database (closing any connections still open to it) and ends `admin`. */
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database on TEST_DATABASE_URL's server, named `${prefix}_<random>`. */
export async function throwawayDatabase(prefix: string, baseUrl = TEST_DATABASE_URL): Promise<ThrowawayDatabase> {
  const name = uniqueIdentifier(prefix);
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end({ timeout: 5 }).catch(() => {});
    throw error;
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      try {
        // Not WITH (FORCE): that fails outright when an autovacuum worker is on the database (it
        // runs as no role the test's may signal). Our own connections are ended here; a plain
        // DROP then tells autovacuum to stop and waits up to 5 s for it, tried a few times.
        for (let attempt = 1; ; attempt++) {
          await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and backend_type = 'client backend' and pid <> pg_backend_pid()`;
          try {
            await admin.unsafe(`drop database if exists ${name}`);
            return;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 5) throw error;
            await Bun.sleep(200);
          }
        }
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}

/** Waits for `check`; the timeout only stops a hang, so it is generous (a busy machine is slow). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(10);
  }
}
