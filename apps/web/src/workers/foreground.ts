/**
 * Background work in the crypto worker (the search index's build, docs/web-files.md "The search
 * index of My Files") gives way to the calls the page is waiting on: a grant to verify on
 * /shared, a listing to open, a zip's keys. Each call the page makes is counted while it runs;
 * the build waits for none to be running between its slices.
 */

/** The calls that are background work themselves: they never hold the build back. */
const BACKGROUND = new Set(['searchIndexBuild', 'searchIndexApply', 'searchIndexNoteListing', 'searchIndexSetShared']);

/**
 * Longest a slice of background work waits. A call the page keeps open (a long zip's keys) then
 * shares the worker rather than stopping the build for good.
 */
export const MAX_YIELD_MS = 2000;

let running = 0;
let waiting: Array<() => void> = [];

function settle(): void {
  if (--running > 0) return;
  const woken = waiting;
  waiting = [];
  for (const wake of woken) wake();
}

/** Runs one RPC call, counted while it runs unless it is background work. */
export function countCall(method: string, run: () => Promise<unknown>): Promise<unknown> {
  if (BACKGROUND.has(method)) return run();
  running++;
  return run().finally(settle);
}

/** Resolves once no call the page waits on is running (at most MAX_YIELD_MS from now). */
export function foregroundIdle(): Promise<void> {
  if (running === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, MAX_YIELD_MS);
    waiting.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
