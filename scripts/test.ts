/**
 * `npm test`: every suite of the repo, in order, with one summary line at the end.
 * Typecheck, lint and import boundaries, then `bun test` at the root as a user types it, two
 * files at a time (crypto, server, scripts, the web components through vitest, e2e in Chromium,
 * building the web app on demand), with the slowest files' wall times at the end.
 * Set SEALBOX_REQUIRE_SERVICES=1 (CI does) to make PostgreSQL, S3 and Chromium suites mandatory.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureReports } from './failure-reports.ts';
import { readTimings, timesTable } from './file-times.ts';

const root = new URL('..', import.meta.url).pathname;
const bun = process.execPath;
const only = process.argv.slice(2);

interface Outcome {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  code: number;
  seconds: number;
  /** What bun printed for each failing test, repeated under the summary. */
  failures: string[];
}

async function run(
  name: string,
  cmd: string[],
  cwd = root,
  parse?: (out: string) => Omit<Outcome, 'name' | 'code' | 'seconds' | 'failures'>,
): Promise<Outcome> {
  console.log(`\n=== ${name}: ${cmd.join(' ')}`);
  const started = performance.now();
  const proc = Bun.spawn(cmd, { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  let captured = '';
  const pump = async (stream: ReadableStream<Uint8Array>, sink: { write(text: string): unknown }) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const text = decoder.decode(r.value, { stream: true });
      captured += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  const counts = parse ? parse(captured) : { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
  // A runner that crashed before counting must still fail the run.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return { name, ...counts, code, seconds: (performance.now() - started) / 1000, failures: failureReports(captured) };
}

const num = (out: string, re: RegExp) => Number(out.match(re)?.[1] ?? 0);
const bunCounts = (out: string) => ({
  passed: num(out, /^\s*(\d+) pass$/m),
  failed: num(out, /^\s*(\d+) fail$/m),
  skipped: num(out, /^\s*(\d+) skip$/m),
});

/**
 * Two test files at a time: on the 2-core machines CI runs on, six browser suites took 157 s so
 * against 255 s one at a time, as the suites spend much of their time waiting on Chromium and the
 * server. Each file gets its own process, server, database schema and browser profile.
 */
const PARALLEL = 2;
/**
 * Each file's time in a full run (bun's format), so bun starts the slowest files first and the
 * two workers end together. Refresh after adding slow suites:
 * `bun test --parallel=2 --timings=scripts/test-timings.json --update-timings`.
 */
const KNOWN_TIMINGS = join(root, 'scripts', 'test-timings.json');
const timings = join(await mkdtemp(join(tmpdir(), 'sealbox-test-')), 'timings.json');
await copyFile(KNOWN_TIMINGS, timings).catch(() => {});

const steps: Array<[string, () => Promise<Outcome>]> = [
  ['typecheck', () => run('typecheck', [bun, 'x', 'tsc', '-p', 'tsconfig.json'])],
  // Biome (format and lint) and the import boundaries of .dependency-cruiser.cjs.
  ['lint', () => run('lint', [bun, 'run', 'lint'])],
  // What runs, and each test file's 120 s default (scripts/bun-test-preload.ts), is bunfig.toml's,
  // as for anyone who types `bun test` at the root; only how many at a time is added.
  [
    'bun',
    () => run('bun test', [bun, 'test', `--parallel=${PARALLEL}`, `--timings=${timings}`, '--update-timings'], root, bunCounts),
  ],
];

if (import.meta.main) await main();

async function main() {
  const outcomes: Outcome[] = [];
  for (const [key, step] of steps) if (only.length === 0 || only.includes(key)) outcomes.push(await step());

  const failures = outcomes.flatMap((o) => o.failures);
  if (failures.length > 0) {
    console.log('\n=== failures (repeated from above)');
    for (const report of failures) console.log(`\n${report}`);
  }

  const measured = await readTimings(timings);
  const e2e = timesTable(measured, 'e2e/');
  if (e2e.length > 0) console.log(`\n=== e2e files by wall time, slowest first\n${e2e.join('\n')}`);
  const others = timesTable(Object.fromEntries(Object.entries(measured).filter(([file]) => !file.startsWith('e2e/'))), '');
  if (others.length > 0)
    console.log(`\n=== other test files, the ten slowest\n${[...others.slice(0, 10), others.at(-1)].join('\n')}`);

  console.log('\n=== summary');
  for (const o of outcomes) {
    console.log(
      `${o.name.padEnd(14)} ${o.code === 0 ? 'ok  ' : 'FAIL'}  ${o.passed} passed, ${o.failed} failed, ${o.skipped} skipped  (${o.seconds.toFixed(1)} s)`,
    );
  }
  const passed = outcomes.reduce((s, o) => s + o.passed, 0);
  const failed = outcomes.reduce((s, o) => s + o.failed, 0);
  const skipped = outcomes.reduce((s, o) => s + o.skipped, 0);
  console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
}
