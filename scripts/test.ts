/**
 * `npm test`: every suite of the repo, in order, with one summary line at the end.
 * Typecheck, lint and import boundaries, then every file `bun test` at the root would run (crypto,
 * server, scripts, the web components through vitest, e2e in Chromium, building the web app on
 * demand), each in its own `bun test` process, two at a time, with the slowest files' wall times
 * at the end.
 * Set SEALBOX_REQUIRE_SERVICES=1 (CI does) to make PostgreSQL, S3 and Chromium suites mandatory.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bunfig from '../bunfig.toml';
import { exitReport, failureReports } from './failure-reports.ts';
import { readTimings, timesTable, type Timings } from './file-times.ts';
import { bunCrashed, inLanes, testFiles } from './test-files.ts';

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

type Counts = Omit<Outcome, 'name' | 'code' | 'seconds' | 'failures'>;

/**
 * Runs one command to its end. Its output streams through, or with `quiet` is only kept (two
 * test files at a time would interleave their lines; each is printed whole when it ends).
 */
async function run(
  name: string,
  cmd: string[],
  parse?: (out: string) => Counts,
  quiet = false,
): Promise<Outcome & { out: string }> {
  if (!quiet) console.log(`\n=== ${name}: ${cmd.join(' ')}`);
  const started = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  let captured = '';
  const pump = async (stream: ReadableStream<Uint8Array>, sink: { write(text: string): unknown }) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const text = decoder.decode(r.value, { stream: true });
      captured += text;
      if (!quiet) sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  const counts = parse ? parse(captured) : { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
  // A runner that crashed before counting must still fail the run.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  const seconds = (performance.now() - started) / 1000;
  const failures = failureReports(captured);
  if (code !== 0 && failures.length === 0) failures.push(exitReport(captured, code));
  return { name, ...counts, code, seconds, failures, out: captured };
}

const num = (out: string, re: RegExp) => Number(out.match(re)?.[1] ?? 0);
const bunCounts = (out: string) => ({
  passed: num(out, /^\s*(\d+) pass$/m),
  failed: num(out, /^\s*(\d+) fail$/m) + num(out, /^\s*(\d+) errors?$/m),
  skipped: num(out, /^\s*(\d+) skip$/m),
});

/**
 * Two test files at a time: on the 2-core machines CI runs on, six browser suites took 157 s so
 * against 255 s one at a time, as the suites spend much of their time waiting on Chromium and the
 * server. Each file gets its own process, server, database schema and browser profile.
 */
const PARALLEL = 2;
/**
 * Each file's time in a full run (bun's timings format), so the slowest files start first and
 * the two lanes end together. `SEALBOX_UPDATE_TIMINGS=1 npm test -- bun` refreshes it.
 */
const KNOWN_TIMINGS = join(root, 'scripts', 'test-timings.json');
const timings = join(await mkdtemp(join(tmpdir(), 'sealbox-test-')), 'timings.json');

/**
 * Every file `bun test` at the root runs (bunfig.toml's, with its preload and 120 s default), each
 * as `bun test ./file` in a process of its own (scripts/test-files.ts says why). A file whose
 * process Bun itself crashed in runs once more, and the summary says so; a failing test never does.
 */
async function bunTests(): Promise<Outcome> {
  const started = performance.now();
  const files = await testFiles(root, bunfig.test?.pathIgnorePatterns ?? [], await readTimings(KNOWN_TIMINGS));
  console.log(`\n=== bun test: ${files.length} files, each in its own process, ${PARALLEL} at a time`);
  const measured: Timings = {};
  const crashed: string[] = [];
  const outcomes = await inLanes(files, PARALLEL, async (file) => {
    let outcome = await run(file, [bun, 'test', `./${file}`], bunCounts, true);
    if (outcome.code !== 0 && bunCrashed(outcome.out)) {
      crashed.push(file);
      console.log(`\n${outcome.out}\n(Bun crashed running ${file}: running it once more)`);
      outcome = await run(file, [bun, 'test', `./${file}`], bunCounts, true);
    }
    console.log(`\n${outcome.out.trimEnd()}`);
    measured[file] = Math.round(outcome.seconds * 1000);
    return outcome;
  });
  const body = `${JSON.stringify({ version: 1, files: measured }, null, 2)}\n`;
  await writeFile(timings, body);
  if (process.env.SEALBOX_UPDATE_TIMINGS === '1') await writeFile(KNOWN_TIMINGS, body);
  if (crashed.length > 0) console.log(`\nBun crashed in ${crashed.length} file(s), each run once more: ${crashed.join(', ')}`);
  const sum = (key: 'passed' | 'failed' | 'skipped') => outcomes.reduce((total, o) => total + o[key], 0);
  return {
    name: 'bun test',
    passed: sum('passed'),
    failed: sum('failed'),
    skipped: sum('skipped'),
    code: outcomes.every((o) => o.code === 0) ? 0 : 1,
    seconds: (performance.now() - started) / 1000,
    failures: outcomes.flatMap((o) => o.failures.map((report) => `${o.name}\n${report}`)),
  };
}

const steps: Array<[string, () => Promise<Outcome>]> = [
  ['typecheck', () => run('typecheck', [bun, 'x', 'tsc', '-p', 'tsconfig.json'])],
  // Biome (format and lint) and the import boundaries of .dependency-cruiser.cjs.
  ['lint', () => run('lint', [bun, 'run', 'lint'])],
  ['bun', bunTests],
];

if (import.meta.main) await main();

async function main() {
  const outcomes: Outcome[] = [];
  for (const [key, step] of steps) if (only.length === 0 || only.includes(key)) outcomes.push(await step());

  const measured = await readTimings(timings);
  const e2e = timesTable(measured, 'e2e/');
  if (e2e.length > 0) console.log(`\n=== e2e files by wall time, slowest first\n${e2e.join('\n')}`);
  const others = timesTable(Object.fromEntries(Object.entries(measured).filter(([file]) => !file.startsWith('e2e/'))), '');
  if (others.length > 0)
    console.log(`\n=== other test files, the ten slowest\n${[...others.slice(0, 10), others.at(-1)].join('\n')}`);

  // Last before the summary: CI keeps only the tail of the output.
  const failures = outcomes.flatMap((o) => o.failures);
  if (failures.length > 0) {
    console.log('\n=== failures (repeated from above)');
    for (const report of failures) console.log(`\n${report}`);
  }

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
