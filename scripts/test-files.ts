/**
 * The test files `bun test` at the root would run, and running them a few at a time, each in a
 * process of its own (README.md, "Quick start").
 *
 * bun's own `--parallel` keeps one worker process for many files; under Bun 1.4.5 such a worker,
 * after some 700 s, crashed (SIGSEGV, "a bug in Bun") and bun then aborted every file not yet
 * run, in both workers. A process per file costs a fraction of a second each and confines any
 * such crash to the file that met it.
 */
import { Glob } from 'bun';

/** bun's own default: the names it takes for test files. */
const TEST_NAME = /(\.|_)(test|spec)\.(ts|tsx|js|jsx|mjs|mts|cjs|cts)$/;

/**
 * The files `bun test` at `root` would run: bun's test names, outside node_modules and hidden
 * folders, less bunfig.toml's pathIgnorePatterns. Sorted slowest first by `known` (milliseconds
 * per file from an earlier run), then by path, so the lanes end together.
 */
export async function testFiles(root: string, ignore: string[], known: Record<string, number> = {}): Promise<string[]> {
  const ignored = ignore.map((pattern) => new Glob(pattern));
  const files: string[] = [];
  for await (const path of new Glob('**/*').scan({ cwd: root, onlyFiles: true })) {
    if (!TEST_NAME.test(path)) continue;
    if (path.split('/').some((part) => part === 'node_modules' || part.startsWith('.'))) continue;
    if (ignored.some((glob) => glob.match(path))) continue;
    files.push(path);
  }
  return files.sort((a, b) => (known[b] ?? 0) - (known[a] ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Runs `work` on each item, at most `lanes` at once, in the order given; answers in that order. */
export async function inLanes<T, R>(items: T[], lanes: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return results;
}

/** Bun's own words when it crashes, as opposed to a test that fails. */
export const bunCrashed = (output: string) => /oh no: Bun has crashed|panic\(main thread\)/.test(output);
