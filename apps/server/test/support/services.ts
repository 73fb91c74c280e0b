import { describe, test } from 'bun:test';
import postgres from 'postgres';

/**
 * Suites for PostgreSQL and S3 run whenever the service is reachable. In CI (CI=true) or with
 * SEALBOX_REQUIRE_SERVICES=1 an unreachable service fails the run instead of skipping it.
 */
export const servicesRequired = process.env.CI === 'true' || process.env.SEALBOX_REQUIRE_SERVICES === '1';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://sealbox:sealbox@127.0.0.1:5432/sealbox_test';

export type Availability = { available: true } | { available: false; reason: string };

export async function postgresAvailability(url = TEST_DATABASE_URL): Promise<Availability> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
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

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 3000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(10);
  }
}
