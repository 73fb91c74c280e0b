import { expect, test } from 'bun:test';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bunCrashed, inLanes, testFiles } from './test-files.ts';

test("the files bun would run: its test names, less node_modules, hidden folders and bunfig's ignores, slowest first", async () => {
  const root = await mkdtemp(join(tmpdir(), 'test-files-'));
  const paths = [
    'a/one.test.ts',
    'a/two_spec.js',
    'b/three.spec.tsx',
    'b/helper.ts',
    'b/test.ts',
    'node_modules/dep/x.test.ts',
    'a/node_modules/y.test.ts',
    '.tools/z.test.ts',
    'web/src/component.test.tsx',
    'web/vitest.test.ts',
  ];
  for (const path of paths) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), '');
  }
  const files = await testFiles(root, ['web/src/**'], { 'b/three.spec.tsx': 5_000, 'web/vitest.test.ts': 9_000 });
  expect(files).toEqual(['web/vitest.test.ts', 'b/three.spec.tsx', 'a/one.test.ts', 'a/two_spec.js']);
});

test('lanes: never more than asked at once, every item done, answers in the order given', async () => {
  let running = 0;
  let most = 0;
  const answers = await inLanes([30, 5, 20, 1, 10], 2, async (ms) => {
    running++;
    most = Math.max(most, running);
    await Bun.sleep(ms);
    running--;
    return ms * 2;
  });
  expect(answers).toEqual([60, 10, 40, 2, 20]);
  expect(most).toBe(2);
  expect(await inLanes([], 2, async () => 1)).toEqual([]);
});

test("Bun's own crash is told apart from a failing test", () => {
  expect(bunCrashed('panic(main thread): Segmentation fault at address 0x40F0B03\noh no: Bun has crashed.')).toBe(true);
  expect(bunCrashed('(fail) a test > that fails [2.00ms]\n 0 pass\n 1 fail')).toBe(false);
});
