/**
 * A zip's files fetched a few ahead of the one being written (docs/web-files.md "Selection"): one
 * at a time, a folder of 10,000 small files waited a round trip for each, 11 ms a file
 * (bench/big-account). What is fetched ahead is bounded in files and in bytes, so a zip of large
 * files still holds about one file's worth in flight.
 */
export const AHEAD_FILES = 4;
export const AHEAD_BYTES = 8 * 1024 * 1024;

/**
 * The entries to have in flight when entry `index` is wanted: it, then the files after it while
 * at most AHEAD_FILES more and AHEAD_BYTES more bytes. `sizes` is null or negative for an entry
 * that is not fetched (a folder: a zip's columns say -1, model/zip-columns.ts).
 */
export function aheadOf(sizes: ArrayLike<number | null>, index: number): number[] {
  const out = [index];
  let bytes = 0;
  for (let i = index + 1; i < sizes.length && out.length <= AHEAD_FILES; i++) {
    const size = sizes[i];
    if (size === null || size === undefined || size < 0) continue;
    if (bytes + size > AHEAD_BYTES) break;
    bytes += size;
    out.push(i);
  }
  return out;
}

/**
 * `start(i)` for each entry, as `aheadOf` says, each once; `take(i)` hands over entry i's
 * answer (started now if it was not yet). A failure of one fetched ahead surfaces when it is taken.
 */
export function fetchingAhead<T>(sizes: ArrayLike<number | null>, start: (index: number) => Promise<T>) {
  const waiting = new Map<number, Promise<T>>();
  const begun = new Set<number>();
  return (index: number): Promise<T> => {
    for (const i of aheadOf(sizes, index)) {
      if (begun.has(i)) continue;
      begun.add(i);
      const answer = start(i);
      // Heard when taken; until then a failure must not count as unhandled.
      answer.catch(() => undefined);
      waiting.set(i, answer);
    }
    const answer = waiting.get(index);
    waiting.delete(index);
    return answer ?? Promise.reject(new Error(`entry ${index} taken twice`));
  };
}
