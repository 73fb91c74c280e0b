import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAndLogin, uniqueName } from './accounts/harness.ts';
import { partBytes, patternFile, postUpload } from './files/harness.ts';
import { browserOn } from './support/cluster.ts';
import { codeBlocks } from './support/doc-blocks.ts';
import { LiveClient } from './support/live-client.ts';
import { isolatedEnv, REPO_ROOT, spawnMain } from './support/main-process.ts';

/**
 * docs/operations.md "Production start (systemd)": the unit's ExecStart, run as systemd would
 * (from the checkout, with the unit's Environment= lines), is the server itself and drains on
 * SIGTERM. Only the Bun binary is the test's own (the unit names where an administrator put it).
 */
async function systemdUnit(): Promise<{ argv: string[]; env: Record<string, string>; timeoutStopSec: number }> {
  const units = (await codeBlocks()).filter((block) => block.lang === 'ini' && block.code.includes('[Service]'));
  expect(units.length).toBe(1);
  const lines = units[0]!.code.split('\n');
  const value = (key: string) => lines.filter((line) => line.startsWith(`${key}=`)).map((line) => line.slice(key.length + 1));
  const [execStart] = value('ExecStart');
  const [bun, ...args] = execStart!.split(/\s+/);
  expect(bun).toMatch(/^\/.*\/bun$/);
  expect(value('KillSignal')).toEqual(['SIGTERM']);
  expect(value('Restart')).toEqual(['on-failure']);
  expect(value('WorkingDirectory')).toHaveLength(1);
  expect(value('User')).toHaveLength(1);
  expect(value('EnvironmentFile')).toHaveLength(1);
  const env = Object.fromEntries(value('Environment').map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return { argv: [process.execPath, ...args], env, timeoutStopSec: Number(value('TimeoutStopSec')[0]) };
}

/** Processes whose parent is `pid` (Linux /proc): a wrapper would show up here. */
async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after the command name (which may hold spaces): state, then the parent's pid.
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
  }
  return found;
}

const BIG = 48 * 1024 * 1024;
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sealbox-production-'));
  // A large page stands in for a long download.
  await Bun.write(join(tmp, 'web/index.html'), new Uint8Array(BIG).fill(0x20));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('the production start of docs/operations.md', () => {
  test('runs as the server itself and, on SIGTERM, finishes a download and an upload in flight, closes sockets 1001, exits 0', async () => {
    const unit = await systemdUnit();
    expect(unit.timeoutStopSec).toBeGreaterThan(10);
    const env = isolatedEnv(tmp, { ...unit.env, DATA_DIR: join(tmp, 'data'), WEB_DIST: join(tmp, 'web') });
    const server = await spawnMain(env, { argv: unit.argv, cwd: REPO_ROOT });
    const pid = server.child.pid;
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect(await childrenOf(pid)).toEqual([]);

      const browser = browserOn(server);
      await registerAndLogin(browser, uniqueName('p'));
      const socket = await LiveClient.open(server.url, browser.cookie);
      const file = await patternFile(crypto.getRandomValues(new Uint8Array(32)), null, 300_000);
      const created = await postUpload(browser, file.meta);
      expect(created.status).toBe(201);
      const part = partBytes(file.cipher, 0);

      // In flight when the signal comes: a download read slowly, and an upload part sent slowly.
      const download = await fetch(`${server.url}/`);
      const reader = download.body!.getReader();
      let received = (await reader.read()).value?.byteLength ?? 0;
      let sent = 0;
      const slices = 10;
      const upload = browser.request('PUT', `/api/upload/${created.body.uploadId}/part/0`, {
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(part.byteLength) },
        body: new ReadableStream({
          async pull(controller) {
            if (sent === slices) return controller.close();
            await Bun.sleep(150);
            const size = Math.ceil(part.byteLength / slices);
            controller.enqueue(part.subarray(sent * size, (sent + 1) * size));
            sent++;
          },
        }),
      });
      while (sent < 2) await Bun.sleep(10);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      expect((await socket.closed).code).toBe(1001);
      await Bun.sleep(500);
      expect(server.child.exitCode).toBeNull();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        received += read.value.byteLength;
        await Bun.sleep(2);
      }
      expect(received).toBe(BIG);
      expect((await upload).status).toBe(204);

      expect(await server.child.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(unit.timeoutStopSec * 1000);
      expect(server.stdout()).toContain('"msg":"stopped"');
      expect(await childrenOf(pid)).toEqual([]);
      await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});
