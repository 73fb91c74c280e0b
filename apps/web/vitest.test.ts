/**
 * The web app's component tests (src/**\/*.test.ts(x)) have one runner: vitest, with its happy-dom
 * environment and its `vi` (vitest.config.ts). `bun test` reaches them only through this file
 * (bunfig.toml keeps bun itself out of apps/web/src): it runs vitest once, on Bun like everything
 * else here, and replays each of its tests as a bun test, so they count, filter (-t) and fail like
 * any other, a failing one with vitest's error, diff and place in the test file
 * (src/test/report-for-bun.ts writes them). One file, or watching: `bun --bun run test [file]` here.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { WebTestReport } from './src/test/report-for-bun.ts';

const WEB = import.meta.dir;
const ROOT = join(WEB, '..', '..');

async function runVitest(): Promise<{ code: number; output: string; report?: WebTestReport; seconds: number }> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-vitest-'));
  try {
    const reportPath = join(dir, 'report.json');
    const vitest = join(WEB, 'node_modules', 'vitest', 'vitest.mjs');
    const proc = Bun.spawn([process.execPath, vitest, 'run', '--reporter=dot', '--reporter=./src/test/report-for-bun.ts'], {
      cwd: WEB,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, SEALBOX_VITEST_REPORT: reportPath, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    const [code, stdout, stderr] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    const report = await readFile(reportPath, 'utf8').then(
      (text) => JSON.parse(text) as WebTestReport,
      () => undefined,
    );
    return {
      code,
      output: `${stdout}${stderr}`.trim(),
      seconds: (performance.now() - started) / 1000,
      ...(report ? { report } : {}),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Fails the bun test with what vitest said: the error, its diff, the frames in the test file. */
function failure(vitestSaid: string): never {
  // Thrown as text, so bun prints it after "error:" as it is, with no stack of this file's own.
  throw Bun.stripANSI(vitestSaid);
}

const run = await runVitest();
const tests = run.report?.files.flatMap((file) => file.tests) ?? [];
console.log(
  `vitest ran ${run.report?.files.length ?? 0} web test files in ${run.seconds.toFixed(1)} s: ` +
    `${tests.filter((t) => t.state === 'passed').length} passed, ${tests.filter((t) => t.state === 'failed').length} failed`,
);

for (const file of [...(run.report?.files ?? [])].sort((a, b) => a.file.localeCompare(b.file))) {
  describe(relative(ROOT, file.file), () => {
    // A file can fail outside its tests: an import that throws, a hook.
    if (file.errors.length > 0) test('(the file itself)', () => failure(file.errors.join('\n\n')));
    for (const { name, state, errors } of file.tests) {
      if (state === 'passed') test(name, () => {});
      else if (state === 'failed') test(name, () => failure(errors.join('\n\n')));
      else test.skip(name, () => {});
    }
  });
}

test('vitest ran every web test file, with no error outside a test', () => {
  if (!run.report) failure(`vitest wrote no report (exit code ${run.code}):\n${run.output}`);
  if (run.report.unhandled.length > 0) failure(`vitest saw errors outside the tests:\n\n${run.report.unhandled.join('\n\n')}`);
  const failed = tests.some((t) => t.state === 'failed') || run.report.files.some((file) => file.errors.length > 0);
  if (run.code !== 0 && !failed) failure(`vitest exited with code ${run.code}:\n${run.output}`);
  expect(run.report.files.length).toBeGreaterThan(0);
});
