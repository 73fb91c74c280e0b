/** Keeps every IN (...) list far below SQLite's and PostgreSQL's bound-parameter limits. */
const IN_CHUNK = 500;

/** A long list of values in pieces, each small enough for one IN (...). */
export function* chunks<T>(list: readonly T[]): Generator<T[]> {
  for (let i = 0; i < list.length; i += IN_CHUNK) yield list.slice(i, i + IN_CHUNK);
}

/** The rows of one statement run chunk by chunk over these values, each value once. */
export async function inChunks<T, R>(values: readonly T[], run: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const chunk of chunks([...new Set(values)])) out.push(...(await run(chunk)));
  return out;
}

/** Code-unit order of two ids: the tie-break of the sorts made here rather than in SQL. */
export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
