/**
 * A full garbage collection soon after the bridge did something big. JavaScriptCore collects
 * lazily: a PROPFIND of a 10,000-item folder leaves tens of MiB of garbage (the listing's JSON,
 * the opened names, the XML), and five in a row took the bridge from 56 to 250 MiB resident
 * where a collection after each kept it at 128 MiB (docs/benchmarks.md "bench/cli"). One
 * collection at most every 200 ms, after the work that called for it.
 */

/** A transfer this large, or a listing this long, is followed by a collection. */
export const HEAVY_BYTES = 32 * 1024 * 1024;
export const HEAVY_ITEMS = 1000;

let pending: ReturnType<typeof setTimeout> | undefined;

export function collectSoon(): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = undefined;
    Bun.gc(true);
  }, 200);
}
