/**
 * Timings a test can assert on a busy machine: never an absolute limit (another process may hold
 * the CPU for a moment), always a ratio against a baseline measured in the same test, the two
 * interleaved so that load falls on both alike. Absolute figures belong in bench/
 * (docs/benchmarks.md).
 */

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds `fn` takes. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * The median time of `baseline` and of `subject`, run one after the other `rounds` times, so a
 * moment of load slows both. Assert `subject <= k * baseline` with a generous k.
 */
export async function interleavedMedians(
  rounds: number,
  baseline: () => Promise<unknown>,
  subject: () => Promise<unknown>,
): Promise<{ baseline: number; subject: number }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await timed(baseline));
    b.push(await timed(subject));
  }
  return { baseline: median(a), subject: median(b) };
}
