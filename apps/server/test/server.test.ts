import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { registrationFor } from './accounts/harness.ts';
import { MAIN, isolatedEnv, spawnMain } from './support/main-process.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sealbox-server-'));
  await writeFile(join(tmp, 'index.html'), '<!doctype html><title>Sealbox</title>');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The isolated environment, serving the stand-in web app in `tmp`. */
function serverEnv(extra: Record<string, string>): Record<string, string> {
  return isolatedEnv(tmp, { WEB_DIST: tmp, ...extra });
}

const BIG_PAGE = 32 * 1024 * 1024;

/** An in-process server whose web app is one 32 MiB page: a download that takes a while. */
async function withBigPage(fn: (server: RunningServer) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-data-'));
  const big = join(dataDir, 'web');
  await Bun.write(join(big, 'index.html'), 'x'.repeat(BIG_PAGE));
  const server = await startServer(loadConfig(serverEnv({ DATA_DIR: dataDir, WEB_DIST: big })), { logger: silentLogger });
  try {
    await fn(server);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('startServer (in-process)', () => {
  test('serves health and the web app on a real port, then stops and closes its adapters', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-data-'));
    const config = loadConfig(serverEnv({ DATA_DIR: dataDir }));
    const server = await startServer(config, { logger: silentLogger });
    try {
      expect(server.port).toBeGreaterThan(0);
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', db: 'ok', blobs: 'ok', events: 'ok' });
      expect(health.headers.get('content-security-policy')).toContain("default-src 'self'");
      const page = await fetch(`${server.url}/files?parentId=x`);
      expect(await page.text()).toContain('<title>Sealbox</title>');
      // Upload routes take at most one part (plus framing); every other route 1 MiB.
      const tooBig = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(9 * 1024 * 1024),
      });
      expect(tooBig.status).toBe(413);
      const tooBigJson = await fetch(`${server.url}/api/profile`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(2 * 1024 * 1024),
      });
      expect(tooBigJson.status).toBe(413);
    } finally {
      await server.stop();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    await expect(server.adapters.db.health()).rejects.toThrow();
  });

  test('expired sessions are swept at start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-data-'));
    const config = loadConfig(serverEnv({ DATA_DIR: dataDir, RATE_LIMITS: 'off' }));
    let server = await startServer(config, { logger: silentLogger });
    try {
      const registration = await registrationFor(`sweep${Date.now() % 1e8}`);
      const created = await fetch(`${server.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registration),
      });
      const { id } = (await created.json()) as { id: string };
      const at = (days: number) => Date.now() + days * 24 * 60 * 60 * 1000;
      const session = (sessionId: string, expiresAt: number) => ({
        id: sessionId,
        userId: id,
        totpPending: false,
        userAgent: null,
        createdAt: at(-40),
        lastSeenAt: at(-31),
        expiresAt,
      });
      const { loginVerifier } = (await server.adapters.accounts.users.findById(id))!;
      expect(await server.adapters.accounts.sessions.insert(session('a'.repeat(64), at(-1)), loginVerifier)).toBe(true);
      expect(await server.adapters.accounts.sessions.insert(session('b'.repeat(64), at(1)), loginVerifier)).toBe(true);
      await server.stop();
      server = await startServer(config, { logger: silentLogger });
      expect(await server.adapters.accounts.sessions.findById('a'.repeat(64))).toBeUndefined();
      expect(await server.adapters.accounts.sessions.findById('b'.repeat(64))).toBeDefined();
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('a request in flight when stop() is called still completes', () =>
    withBigPage(async (server) => {
      const response = await fetch(`${server.url}/`);
      const stopped = server.stop({ timeoutMs: 5000 });
      const body = await response.arrayBuffer();
      expect(body.byteLength).toBe(BIG_PAGE);
      await stopped;
    }));

  test('a request that outlasts the drain is cut at the timeout, and the adapters still close', () =>
    withBigPage(async (server) => {
      // A client that stops reading: its download never finishes by itself, so stop() returning
      // at all (within the test's timeout, a hang guard) is the cut; how soon is not measured
      // here, since a busy machine moves it.
      const response = await fetch(`${server.url}/`);
      await server.stop({ timeoutMs: 300 });
      await expect(response.arrayBuffer()).rejects.toThrow();
      await expect(server.adapters.db.health()).rejects.toThrow();
    }));
});

describe('bun src/main.ts', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)(
    'exits 0 promptly on %s after serving',
    async (signal) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-main-'));
      const { child, url, stdout } = await spawnMain(serverEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
      try {
        const health = await fetch(`${url}/api/health`);
        expect(health.status).toBe(200);
        child.kill(signal);
        // Only a hang guard: promptly means it never waited for the drain's cut (10 s), which the
        // log would say, not a wall-clock figure a busy machine could exceed.
        const code = await Promise.race([child.exited, Bun.sleep(30_000).then(() => 'timeout' as const)]);
        expect(code).toBe(0);
        expect(stdout()).not.toContain('shutdown timeout');
        await expect(fetch(`${url}/api/health`)).rejects.toThrow();
      } finally {
        child.kill('SIGKILL');
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  test('logs one JSON object per line: the settings, each migration applied and a summary', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-main-'));
    const server = await spawnMain(serverEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
    try {
      expect((await fetch(`${server.url}/api/missing-route`)).status).toBe(404);
      // At once: the request's line (written after its response went out) must not be lost.
      server.child.kill('SIGTERM');
      expect(await server.child.exited).toBe(0);
      await Bun.sleep(50);
      const lines = server.stdout().trimEnd().split('\n');
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const entry of entries) {
        expect(typeof entry.time).toBe('string');
        expect(['debug', 'info', 'warn', 'error']).toContain(entry.level as string);
        expect(typeof entry.msg).toBe('string');
      }
      const migrations = entries.filter((e) => e.msg === 'migration applied').map((e) => e.migration);
      expect(migrations[0]).toBe('001-initial-schema');
      expect(migrations.length).toBeGreaterThan(5);
      expect(entries.find((e) => e.msg === 'migrations')).toMatchObject({
        applied: migrations.length,
        latest: migrations.at(-1),
      });
      expect(entries.find((e) => e.msg === 'starting')).toMatchObject({ database: `sqlite:${join(dataDir, 'sealbox.db')}` });
      expect(entries.map((e) => e.msg)).toEqual(expect.arrayContaining(['listening', 'request', 'shutting down', 'stopped']));
      // A second start over the same data applies nothing.
      const again = await spawnMain(serverEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
      again.child.kill('SIGTERM');
      expect(await again.child.exited).toBe(0);
      expect(again.stdout()).not.toContain('"migration applied"');
      expect(again.stdout()).toContain('"msg":"migrations","applied":0');
    } finally {
      server.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);

  test('refuses to start without a built web app, saying how to build it', async () => {
    const child = Bun.spawn([process.execPath, MAIN], {
      env: serverEnv({ WEB_DIST: join(tmp, 'not-built') }),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(await child.exited).toBe(1);
    expect(await new Response(child.stderr).text()).toContain('The web app is not built');
  });

  test('refuses to start without installed dependencies, saying how to install them', async () => {
    // The server's sources alone, where no node_modules can be found above them.
    const bare = join(tmp, 'bare');
    await cp(join(MAIN, '..'), join(bare, 'src'), { recursive: true });
    const child = Bun.spawn([process.execPath, '--no-install', join(bare, 'src/main.ts')], {
      env: serverEnv({}),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(await child.exited).toBe(1);
    expect(await new Response(child.stderr).text()).toContain('Dependencies are not installed');
  });

  test('refuses to start on invalid configuration, naming the variable', async () => {
    const child = Bun.spawn([process.execPath, MAIN], { env: serverEnv({ PORT: 'eighty' }), stdout: 'pipe', stderr: 'pipe' });
    expect(await child.exited).toBe(1);
    expect(await new Response(child.stderr).text()).toContain('Invalid PORT');
  });
});
