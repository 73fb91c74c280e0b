import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PART_BYTES } from '@sealbox/crypto';
import { registrationFor, uniqueName } from './accounts/harness.ts';
import { decrypt, download, patternFile, uploadFile, type Encrypted } from './files/harness.ts';
import { browserOn, withCluster } from './support/cluster.ts';
import { namedBlock } from './support/doc-blocks.ts';
import { isolatedEnv, spawnMain, type MainProcess } from './support/main-process.ts';
import { s3Env, startLocalS3 } from './support/s3rver.ts';
import { postgresAvailability, reportUnavailable, servicesRequired, throwawayDatabase } from './support/services.ts';

/**
 * docs/operations.md "Backups and restore", run literally: each block marked `run:` there is
 * handed to bash with the instance's settings and BACKUP in the environment. The restore goes
 * into a fresh database and bucket (or data directory), a server is started on it, and the
 * user signs in with the real protocol and downloads the file byte for byte.
 */

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sealbox-backup-'));
  await writeFile(join(tmp, 'index.html'), '<!doctype html><title>Sealbox</title>');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs the doc's block `name` in bash as an administrator would paste it; fails on any error. */
async function runBlock(name: string, env: Record<string, string>): Promise<void> {
  const script = await namedBlock(name);
  const child = Bun.spawn(['bash', '-e', '-o', 'pipefail', '-c', script], {
    env: isolatedEnv(tmp, env),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, out, err] = await Promise.all([
    child.exited,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`block "${name}" exited ${code}:\n${out}\n${err}`);
}

function commandMissing(command: string): boolean {
  return Bun.which(command) === null;
}

interface Seeded {
  username: string;
  password: string;
  cookie: string;
  file: Encrypted;
}

/** A user with a file of two parts (two blobs), made through the API with real crypto. */
async function seed(server: MainProcess): Promise<Seeded> {
  const browser = browserOn(server);
  const username = uniqueName('b');
  const registration = await registrationFor(username);
  const created = await browser.post('/api/register', registration);
  expect(created.status).toBe(201);
  expect((await browser.post('/api/login', { username, password: registration.password })).status).toBe(200);
  const rootKey = crypto.getRandomValues(new Uint8Array(32));
  const file = await patternFile(rootKey, null, PART_BYTES + 54_321, 11);
  await uploadFile({ browser, id: created.body.id, rootKey }, file);
  return { username, password: registration.password, cookie: browser.cookie!, file };
}

/** On the restored server: the user signs in, the session of backup time holds, the file is whole. */
async function expectRestored(server: MainProcess, seeded: Seeded): Promise<void> {
  const browser = browserOn(server);
  expect((await browser.post('/api/login', { username: seeded.username, password: seeded.password })).status).toBe(200);
  const fetched = await download(browser, seeded.file.id);
  expect(fetched.status).toBe(200);
  expect(fetched.bytes).toEqual(seeded.file.cipher);
  expect(await decrypt(seeded.file, fetched.bytes)).toEqual(seeded.file.plain);
  expect((await browserOn(server, seeded.cookie).get('/api/profile')).status).toBe(200);
}

const POSTGRES_S3 = 'backup and restore as written: PostgreSQL + S3';
const availability = await postgresAvailability();
const missing = ['pg_dump', 'pg_restore', 'aws'].filter(commandMissing);
if (!availability.available) reportUnavailable(POSTGRES_S3, availability.reason);
else if (missing.length > 0)
  reportUnavailable(POSTGRES_S3, `${missing.join(', ')} not on PATH (Debian: postgresql-client, awscli; .ci/run installs them)`);
else
  describe(POSTGRES_S3, () => {
    test('pg_dump + aws s3 sync, then restored into a fresh database and bucket: sign-in and the file byte for byte', async () => {
      const backup = join(tmp, 'pg-backup');
      let seeded: Seeded | undefined;
      await withCluster('backup', 1, async ({ servers, database, s3 }) => {
        seeded = await seed(servers[0]!);
        await runBlock('backup-postgres-s3', { DATABASE_URL: database.url, ...s3Env(s3), BACKUP: backup });
      });
      const fresh = await throwawayDatabase('sealbox_restored');
      const bucket = await startLocalS3('sealbox-restored');
      const env = { DATABASE_URL: fresh.url, ...s3Env(bucket) };
      let server: MainProcess | undefined;
      try {
        await runBlock('restore-postgres-s3', { ...env, BACKUP: backup });
        server = await spawnMain(isolatedEnv(tmp, { ...env, DATA_DIR: join(tmp, 'pg-data'), WEB_DIST: tmp, LOG_LEVEL: 'info' }));
        await expectRestored(server, seeded!);
      } finally {
        server?.child.kill('SIGTERM');
        await server?.child.exited;
        await bucket.stop();
        await fresh.drop();
      }
    }, 90_000);
  });

/** Seeds a SQLite + disk server, runs `backup` (live or after a stop), restores into a fresh DATA_DIR, checks. */
async function sqliteRoundTrip(backupBlock: string, restoreBlock: string, live: boolean): Promise<void> {
  const dataDir = join(tmp, `data-${backupBlock}`);
  const backup = join(tmp, `backup-${backupBlock}`);
  const env = isolatedEnv(tmp, { DATA_DIR: dataDir, WEB_DIST: tmp, LOG_LEVEL: 'info' });
  const server = await spawnMain(env);
  let seeded: Seeded;
  try {
    seeded = await seed(server);
    if (live) await runBlock(backupBlock, { DATA_DIR: dataDir, BACKUP: backup });
  } finally {
    server.child.kill('SIGTERM');
    await server.child.exited;
  }
  if (!live) await runBlock(backupBlock, { DATA_DIR: dataDir, BACKUP: backup });
  const restored = join(tmp, `restored-${backupBlock}`);
  await runBlock(restoreBlock, { DATA_DIR: restored, BACKUP: backup });
  const again = await spawnMain({ ...env, DATA_DIR: restored });
  try {
    await expectRestored(again, seeded);
  } finally {
    again.child.kill('SIGTERM');
    await again.child.exited;
  }
}

describe('backup and restore as written: SQLite + disk', () => {
  test(
    'tar of a stopped server, restored into an empty DATA_DIR',
    () => sqliteRoundTrip('backup-stopped', 'restore-stopped', false),
    60_000,
  );

  // .ci/run installs sqlite3; elsewhere the stopped-server way above needs only tar.
  const noSqlite3 = commandMissing('sqlite3') && !servicesRequired;
  if (noSqlite3) console.warn('[skip] SQLite .backup as written: sqlite3 not on PATH');
  test.skipIf(noSqlite3)(
    'sqlite3 .backup and tar while the server runs, restored into a fresh DATA_DIR',
    () => sqliteRoundTrip('backup-sqlite', 'restore-sqlite', true),
    60_000,
  );
});
