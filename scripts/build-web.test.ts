import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureWebBuilt, SOURCES_STAMP, webSourcesHash } from './build-web.ts';

/** A repository with just what the hash reads. */
const FILES: Record<string, string> = {
  'bun.lock': '{}',
  'tsconfig.base.json': '{}',
  'apps/server/package.json': JSON.stringify({ exports: { '.': './src/app.ts', './live-protocol': './src/live/protocol.ts' } }),
  'apps/server/src/app.ts': 'export type App = {};',
  'apps/server/src/live/protocol.ts': 'export const KINDS = ["a"];',
  'apps/web/index.html': '<!doctype html>',
  'apps/web/src/main.ts': "import { KINDS } from '@sealbox/server/live-protocol';",
  'apps/web/src/main.test.ts': 'test',
  'apps/web/src/test/helper.ts': 'helper',
  'packages/crypto/src/index.ts': 'export {};',
};

let root: string;
const write = async (path: string, text: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sealbox-build-web-'));
  for (const [path, text] of Object.entries(FILES)) await write(path, text);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('the sources hash follows the web app, the packages and what the web imports from the server, not tests', async () => {
  const first = await webSourcesHash(root);
  expect(await webSourcesHash(root)).toBe(first);
  for (const path of ['apps/web/src/main.test.ts', 'apps/web/src/test/helper.ts', 'apps/server/src/app.ts']) {
    await write(path, 'changed');
    expect(await webSourcesHash(root)).toBe(first);
  }
  let previous = first;
  for (const path of [
    'apps/web/src/main.ts',
    'apps/web/index.html',
    'packages/crypto/src/index.ts',
    'apps/server/src/live/protocol.ts',
    'bun.lock',
  ]) {
    await write(path, `${FILES[path]}\n// changed`);
    const now = await webSourcesHash(root);
    expect({ path, changed: now !== previous }).toEqual({ path, changed: true });
    previous = now;
  }
  await write('apps/web/src/new.ts', 'export {};');
  expect(await webSourcesHash(root)).not.toBe(previous);
});

/** A stand-in for vite: slow enough for callers to overlap, and counted. */
function fakeBuild() {
  const outDirs: string[] = [];
  return {
    outDirs,
    build: async (outDir: string) => {
      outDirs.push(outDir);
      await Bun.sleep(300);
      await mkdir(outDir, { recursive: true });
      await writeFile(join(outDir, 'index.html'), `build ${outDirs.length}`);
    },
  };
}
const served = () => readFile(join(root, 'apps/web/dist/index.html'), 'utf8');

test('callers at once build once; a build as new as its sources is kept; a changed source builds again', async () => {
  const vite = fakeBuild();
  await Promise.all([1, 2, 3].map(() => ensureWebBuilt(root, vite.build)));
  expect(vite.outDirs).toHaveLength(1);
  expect(await served()).toBe('build 1');
  expect(await readFile(join(root, 'apps/web/dist', SOURCES_STAMP), 'utf8')).toBe(await webSourcesHash(root));

  await ensureWebBuilt(root, vite.build);
  expect(vite.outDirs).toHaveLength(1);

  await write('apps/web/src/main.ts', 'export const changed = true;');
  await ensureWebBuilt(root, vite.build);
  expect(vite.outDirs).toHaveLength(2);
  expect(await served()).toBe('build 2');
  // Built aside, then moved into place.
  expect(vite.outDirs[1]).not.toBe(join(root, 'apps/web/dist'));
});

test('a lock left by a build that was killed is taken over; one held by a live process is waited for', async () => {
  const gone = Bun.spawn(['true']);
  await gone.exited;
  const lock = join(root, 'apps/web/node_modules/.cache/sealbox-build/lock');
  await write('apps/web/node_modules/.cache/sealbox-build/lock', String(gone.pid));
  const vite = fakeBuild();
  await ensureWebBuilt(root, vite.build);
  expect(vite.outDirs).toHaveLength(1);

  // Held by this (live) process: the build waits until the holder lets go.
  await write('apps/web/src/main.ts', 'export const again = true;');
  await writeFile(lock, String(process.pid));
  let done = false;
  const waiting = ensureWebBuilt(root, vite.build).then(() => {
    done = true;
  });
  await Bun.sleep(600);
  expect(done).toBe(false);
  await rm(lock);
  await waiting;
  expect(vite.outDirs).toHaveLength(2);
});
