import { expect, test } from 'bun:test';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTimings, timesTable } from './file-times.ts';

test("bun's timings file is read, and the table lists a prefix's files slowest first with their total", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'file-times-'));
  const path = join(dir, 'timings.json');
  await writeFile(
    path,
    JSON.stringify({
      version: 1,
      files: {
        'packages/crypto/a.test.ts': 2_000,
        'e2e/journeys/app/live.test.ts': 10_500,
        'e2e/journeys/app/smoke.test.ts': 49_000,
      },
    }),
  );
  const timings = await readTimings(path);
  expect(timesTable(timings, 'e2e/')).toEqual([
    '   49.0 s  e2e/journeys/app/smoke.test.ts',
    '   10.5 s  e2e/journeys/app/live.test.ts',
    '   59.5 s  in all, 2 files',
  ]);
  expect(timesTable(timings, 'packages/')).toEqual(['    2.0 s  packages/crypto/a.test.ts', '    2.0 s  in all, 1 file']);
  expect(timesTable(timings, 'bench/')).toEqual([]);
});

test('a missing or foreign timings file gives no figures, and a figure that is not a number is left out', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'file-times-'));
  expect(await readTimings(join(dir, 'missing.json'))).toEqual({});
  await writeFile(join(dir, 'bad.json'), 'not json');
  expect(await readTimings(join(dir, 'bad.json'))).toEqual({});
  await writeFile(join(dir, 'odd.json'), JSON.stringify({ files: { 'a.test.ts': 'slow', 'b.test.ts': 5 } }));
  expect(await readTimings(join(dir, 'odd.json'))).toEqual({ 'b.test.ts': 5 });
});
