import { expect } from 'bun:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, registrationFor, uniqueName } from '../accounts/harness.ts';
import type { User } from '../files/harness.ts';
import { isolatedEnv, remoteTo, spawnMain, type MainProcess } from '../support/main-process.ts';
import { waitFor } from '../support/services.ts';
import { diskBlobs, sqliteTruth } from '../support/storage-truth.ts';

export const ORIGIN = 'http://localhost';

/**
 * One `bun src/main.ts` at a time over one DATA_DIR (SQLite + disk), started again at will, with
 * SEALBOX_TEST_PAUSE (src/infra/db/test-pause.ts) when a start should hang at a known step.
 */
export interface KillableServer {
  dataDir: string;
  url(): string;
  /** Talks to whichever process runs now; sessions survive restarts. */
  remote: { handle(request: Request): Promise<Response> };
  start(env?: Record<string, string>): Promise<void>;
  /** Waits for the "test pause" log line of the running process. */
  paused(timeoutMs?: number): Promise<void>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function killableServer(prefix: string, extraEnv: Record<string, string> = {}): Promise<KillableServer> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const webDir = join(dataDir, 'web');
  await mkdir(webDir, { recursive: true });
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Sealbox</title>');
  let server: MainProcess | undefined;

  async function start(env: Record<string, string> = {}): Promise<void> {
    server = await spawnMain(
      isolatedEnv(dataDir, {
        DATA_DIR: dataDir,
        WEB_DIST: webDir,
        PUBLIC_ORIGIN: ORIGIN,
        LOG_LEVEL: 'info',
        RATE_LIMITS: 'off',
        ...extraEnv,
        ...env,
      }),
    );
  }

  async function kill(): Promise<void> {
    if (!server) return;
    server.child.kill('SIGKILL');
    await server.child.exited;
    server = undefined;
  }

  return {
    dataDir,
    url: () => server?.url ?? '',
    remote: remoteTo(() => server?.url ?? ''),
    start,
    paused: (timeoutMs = 30_000) =>
      waitFor(() => server?.output().includes('"test pause"') ?? false, timeoutMs, 'the server to pause'),
    kill,
    async stop() {
      await kill();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function signUp(server: KillableServer): Promise<User & { username: string; password: string }> {
  const username = uniqueName('k');
  const browser = new Browser(server.remote);
  const registration = await registrationFor(username);
  const created = await browser.post('/api/register', registration);
  expect(created.status).toBe(201);
  expect((await browser.post('/api/login', { username, password: registration.password })).status).toBe(200);
  return {
    browser,
    id: created.body.id,
    rootKey: crypto.getRandomValues(new Uint8Array(32)),
    username,
    password: registration.password,
  };
}

/** What SQLite and the blob directory say, read beside the running server (WAL allows it). */
export async function diskTruth(dataDir: string, userId: string) {
  const { keys, temp } = await diskBlobs(dataDir);
  return { ...sqliteTruth(dataDir, userId), blobs: keys, temp };
}

/** No orphan or missing blob, no unfinished write, usedSpace = bytes stored, reserve = uploads'. */
export async function expectConsistent(dataDir: string, userId: string) {
  const truth = await diskTruth(dataDir, userId);
  expect(truth.temp).toEqual([]);
  expect(truth.blobs).toEqual(truth.named);
  expect(truth.used).toBe(truth.stored);
  expect(truth.reserved).toBe(truth.reservedByUploads);
  return truth;
}
