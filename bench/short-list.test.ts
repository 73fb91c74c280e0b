/**
 * Every bench is in bench/short.ts's list, so npm test runs it: each bench/<dir>/run.ts and each
 * file whose header gives its own `Run: bun bench/...` line, less the helpers a bench starts itself.
 */
import { expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import { SHORT_BENCHES } from './short.ts';

/** Started by their parent bench (bench/live/sockets.ts), never on their own. */
const HELPERS = ['live/bare-server.ts'];

const dir = new URL('.', import.meta.url).pathname;

async function entryPoints(): Promise<string[]> {
  const found: string[] = [];
  for await (const path of new Bun.Glob('*/*.ts').scan({ cwd: dir })) {
    const header = (await readFile(`${dir}${path}`, 'utf8')).slice(0, 4000);
    if (path.endsWith('/run.ts') || header.includes(`Run: bun bench/${path}`)) found.push(path);
  }
  return found.sort();
}

test('every bench entry point runs in npm test with --short', async () => {
  const listed = Object.values(SHORT_BENCHES)
    .flat()
    .map((bench) => bench.entry);
  const entries = await entryPoints();
  expect(entries.length).toBeGreaterThan(10);
  expect(entries.filter((entry) => !HELPERS.includes(entry) && !listed.includes(entry))).toEqual([]);
  // And nothing listed that is gone.
  expect(listed.filter((entry) => !entries.includes(entry))).toEqual([]);
});
