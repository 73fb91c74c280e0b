import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sealbox-preload-'));
  // Past bun's own 5 s, in the second file run: the one bun used to put back to 5 s.
  const slow = "import { test } from 'bun:test';\ntest('takes 5.5 s', async () => { await Bun.sleep(5_500); });\n";
  await writeFile(join(dir, 'a-first.test.ts'), "import { test } from 'bun:test';\ntest('quick', () => {});\n");
  await writeFile(join(dir, 'b-second.test.ts'), slow);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the preload gives every test file its default timeout, not the first file only', async () => {
  const preload = join(import.meta.dir, 'bun-test-preload.ts');
  const run = Bun.spawn([process.execPath, 'test', '--preload', preload, './a-first.test.ts', './b-second.test.ts'], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, out] = await Promise.all([run.exited, new Response(run.stderr).text()]);
  expect({ code, out }).toMatchObject({ code: 0, out: expect.stringContaining('(pass) takes 5.5 s') });
}, 60_000);
