import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
/** In a build: the hash of the sources it was made from (a dot-file, so never served). */
export const SOURCES_STAMP = '.sources-sha256';

/**
 * Builds the web app into apps/web/dist (the server serves it). Shared by start and test.
 * `signal` stops the build (npm start forwards SIGTERM and SIGINT). `outDir` (or
 * SEALBOX_WEB_BUILD_DIR, for tests only) builds elsewhere (never WEB_DIST: the build empties
 * its directory first). The build is stamped with the hash of its sources (see ensureWebBuilt).
 */
export async function buildWeb(signal?: AbortSignal, outDir = process.env.SEALBOX_WEB_BUILD_DIR): Promise<void> {
  const bun = process.execPath;
  const started = performance.now();
  const sources = await webSourcesHash();
  const elsewhere = outDir ? ['--', '--outDir', resolve(outDir), '--emptyOutDir'] : [];
  const proc = Bun.spawn([bun, 'run', 'build', ...elsewhere], {
    cwd: join(ROOT, 'apps', 'web'),
    stdout: 'pipe',
    stderr: 'pipe',
    ...(signal ? { signal } : {}),
  });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if (signal?.aborted) throw new Error('building the web app was stopped');
  if (code !== 0) {
    console.error(out, err);
    throw new Error('building the web app failed');
  }
  await writeFile(join(resolve(outDir ?? join(ROOT, 'apps', 'web', 'dist')), SOURCES_STAMP), sources);
  console.log(`web app built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Builds apps/web/dist unless it was built from the sources as they are now: what the browser
 * suites (e2e/support/server.ts) call before they start a server, so `bun test` works in a fresh
 * clone and never serves a stale app. Several processes may call it at once (`bun test
 * --parallel`, two runs in one tree): one builds, under a lock, the others wait and find it
 * built. The new build is made aside and moved into place, so a running server never sees a
 * half-written app. `root` and `build` are for its tests.
 */
export async function ensureWebBuilt(
  root = ROOT,
  build: (outDir: string) => Promise<void> = (outDir) => buildWeb(undefined, outDir),
): Promise<void> {
  const dist = join(root, 'apps', 'web', 'dist');
  // Beside dist, ignored by git, Biome and the import boundaries.
  const work = join(root, 'apps', 'web', 'node_modules', '.cache', 'sealbox-build');
  const builtFrom = () => readFile(join(dist, SOURCES_STAMP), 'utf8').catch(() => undefined);
  if ((await builtFrom()) === (await webSourcesHash(root))) return;
  await underLock(join(work, 'lock'), async () => {
    const wanted = await webSourcesHash(root);
    if ((await builtFrom()) === wanted) return;
    console.log('building the web app: apps/web/dist is missing or older than its sources');
    const next = join(work, 'next');
    const old = join(work, 'old');
    await rm(next, { recursive: true, force: true });
    await build(next);
    await writeFile(join(next, SOURCES_STAMP), wanted);
    await rm(old, { recursive: true, force: true });
    await rename(dist, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(next, dist);
    await rm(old, { recursive: true, force: true });
  });
}

/**
 * SHA-256 over what the build is made of: apps/web and packages/* (tests aside), the files the
 * web app imports from apps/server (`@sealbox/server/<entry>`), bun.lock and the shared tsconfig.
 */
export async function webSourcesHash(root = ROOT): Promise<string> {
  const files = ['bun.lock', 'tsconfig.base.json', 'apps/server/package.json'];
  const skip = /(^|\/)(node_modules|dist|test)\/|\.test\.tsx?$/;
  for (const dir of ['apps/web', 'packages']) {
    for await (const file of new Bun.Glob(`${dir}/**/*`).scan({ cwd: root, onlyFiles: true })) {
      if (!skip.test(file)) files.push(file);
    }
  }
  const { exports } = JSON.parse(await readFile(join(root, 'apps/server/package.json'), 'utf8')) as {
    exports: Record<string, string>;
  };
  for (const file of files.filter((f) => f.startsWith('apps/web/src/'))) {
    for (const [, entry] of (await readFile(join(root, file), 'utf8')).matchAll(/['"]@sealbox\/server\/([\w-]+)['"]/g)) {
      const target = exports[`./${entry}`];
      if (target) files.push(join('apps/server', target));
    }
  }
  const hash = new Bun.CryptoHasher('sha256');
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)).catch(() => 'missing'));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Runs `work` while holding the build lock, a file naming the holder's pid. */
async function underLock(lock: string, work: () => Promise<void>): Promise<void> {
  await mkdir(dirname(lock), { recursive: true });
  let told = false;
  for (;;) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readFile(lock, 'utf8').catch(() => '');
    if (await abandoned(lock, Number(holder))) {
      await rm(lock, { force: true });
      continue;
    }
    if (!told) console.log(`waiting for process ${holder || '?'} to finish building the web app`);
    told = true;
    await Bun.sleep(250);
  }
  try {
    await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** A lock whose holder is gone (killed mid-build), or far older than any build. */
async function abandoned(lock: string, holder: number): Promise<boolean> {
  const age = await stat(lock).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  if (age > 20 * 60_000) return true;
  // Written just now, the pid may not be in it yet.
  if (!Number.isInteger(holder) || holder <= 0) return age > 10_000;
  try {
    process.kill(holder, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
