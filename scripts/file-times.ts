/**
 * The wall time of each test file of a run, in bun's `--timings` file format (npm test writes it
 * as it runs each file; bun's own `--update-timings` writes the same).
 */
import { readFile } from 'node:fs/promises';

/** Milliseconds per test file, by path from the root, as bun writes them. */
export type Timings = Record<string, number>;

/** The per-file figures of a bun timings file; none when it is missing or not bun's format. */
export async function readTimings(path: string): Promise<Timings> {
  const text = await readFile(path, 'utf8').catch(() => '');
  try {
    const files = (JSON.parse(text) as { files?: unknown }).files;
    if (typeof files !== 'object' || files === null) return {};
    return Object.fromEntries(Object.entries(files).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return {};
  }
}

/** The files under `prefix`, slowest first, with their total. */
export function timesTable(timings: Timings, prefix: string): string[] {
  const rows = Object.entries(timings)
    .filter(([file]) => file.startsWith(prefix))
    .sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return [];
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
  return [
    ...rows.map(([file, ms]) => `${seconds(ms)} s  ${file}`),
    `${seconds(total)} s  in all, ${rows.length} file${rows.length === 1 ? '' : 's'}`,
  ];
}
