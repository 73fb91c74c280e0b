import { expect, test } from 'bun:test';
import { FileTimes } from './file-times.ts';

test('each file runs from its name to the next name or the summary, and the table lists the slowest first', () => {
  let now = 0;
  const times = new FileTimes(() => now);
  const stderr = times.stream();
  const stdout = times.stream();
  stderr.write('bun test v1.4.5\n\npackages/crypto/a.test.ts:\n(pass) a [1ms]\n');
  now = 2_000;
  stderr.write('\ne2e/smoke.test.ts:\n');
  now = 5_000;
  // A line in pieces, on the other stream, while e2e/smoke.test.ts runs.
  stdout.write('web app built in 4');
  stdout.write('1.2 s\n');
  now = 50_000;
  stderr.write('(pass) smoke [10ms]\n\ne2e/li');
  now = 51_000;
  stderr.write('ve.test.ts:\n(fail) live [3ms]\n');
  now = 61_500;
  stderr.write('\n 3 pass\n 1 fail\n');
  now = 99_000;

  expect(times.table('e2e/')).toEqual([
    '   49.0 s  e2e/smoke.test.ts  (includes building the web app, 41.2 s)',
    '   10.5 s  e2e/live.test.ts',
    '   59.5 s  in all, 2 files',
  ]);
  expect(times.table('packages/')).toEqual(['    2.0 s  packages/crypto/a.test.ts', '    2.0 s  in all, 1 file']);
  expect(times.table('bench/')).toEqual([]);
});
