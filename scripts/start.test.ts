import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every process below `pid` (Linux /proc), children first found. */
async function descendantsOf(pid: number): Promise<number[]> {
  const parentOf = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // After the command name (which may hold spaces): the state, then the parent's pid.
    if (stat) parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const found: number[] = [];
  const below = (parent: number) => {
    for (const [child, p] of parentOf) {
      if (p !== parent || found.includes(child)) continue;
      found.push(child);
      below(child);
    }
  };
  below(pid);
  return found;
}

const alive = (pid: number) =>
  readFile(`/proc/${pid}/stat`, 'utf8').then(
    (stat) => !/^\d+ \(.*\) Z/s.test(stat),
    () => false,
  );

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'sealbox-start-'));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

test('npm start stopped while it builds the web app stops the build too, and exits with the signal', async () => {
  // Built into a scratch directory, so the repo's own build is never cut short.
  const start = Bun.spawn([process.execPath, 'scripts/start.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, SEALBOX_WEB_BUILD_DIR: out, PORT: '0' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // Stopped once vite itself runs (under `bun run build`), deep in the build. The waits below only
  // stop a hang: a busy machine may take a while to get there.
  const cmdline = (pid: number) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  let build: number[] = [];
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    await Bun.sleep(50);
    build = await descendantsOf(start.pid);
    if ((await Promise.all(build.map(cmdline))).some((line) => line.includes('vite'))) break;
  }
  expect((await Promise.all(build.map(cmdline))).some((line) => line.includes('vite'))).toBe(true);
  start.kill('SIGTERM');
  expect(await start.exited).toBe(143);
  // The build (bun run build, and vite under it) goes with it rather than running on alone.
  const deadline = Date.now() + 30_000;
  let left = build;
  while (left.length > 0 && Date.now() < deadline) {
    await Bun.sleep(100);
    left = (await Promise.all(build.map(async (pid) => ((await alive(pid)) ? pid : 0)))).filter(Boolean);
  }
  expect(left).toEqual([]);
  expect(await readdir(out).catch(() => [])).not.toContain('index.html');
}, 120_000);
