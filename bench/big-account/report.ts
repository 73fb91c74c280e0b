/**
 * The table of bench/big-account: each measure's median and p95 on the small and the big account,
 * the ratio at the median, and each goal met or NOT met (docs/benchmarks.md "bench/big-account").
 */
import { percentile } from '../support.ts';
import { mib } from './memory.ts';
import type { Goal } from './settings.ts';

export interface Row {
  label: string;
  small: number[];
  big: number[];
  goal: Goal;
  unit: 'ms' | 'bytes';
}

const show = (value: number, unit: Row['unit']) =>
  unit === 'bytes' ? mib(value) : value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(0)} ms`;

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** One line per measure; answers how many goals were not met. */
export function printTable(rows: Row[], runs: number): number {
  let missed = 0;
  const header = ['measure', 'small median / p95', 'big median / p95', 'ratio', 'ratio goal', 'absolute goal'];
  const lines = rows.map((row) => {
    const [s50, s95, b50, b95] = [
      percentile(row.small, 50),
      percentile(row.small, 95),
      percentile(row.big, 50),
      percentile(row.big, 95),
    ];
    const ratio = b50 / s50;
    const ratioOk = ratio <= row.goal.ratio;
    const absoluteOk = row.goal.absolute === undefined || b50 <= row.goal.absolute;
    if (Number.isFinite(row.goal.ratio) && !ratioOk) missed++;
    if (!absoluteOk) missed++;
    return [
      row.label,
      `${show(s50, row.unit)} / ${show(s95, row.unit)}`,
      `${show(b50, row.unit)} / ${show(b95, row.unit)}`,
      `${ratio.toFixed(2)}x`,
      Number.isFinite(row.goal.ratio) ? `≤ ${row.goal.ratio}x: ${verdict(ratioOk)}` : '-',
      row.goal.absolute === undefined
        ? '-'
        : `≤ ${show(row.goal.absolute, row.unit)}: ${verdict(absoluteOk)}` +
          (absoluteOk && b95 > row.goal.absolute ? ' (NOT at p95)' : ''),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${runs} run(s) of each, interleaved small/big; ratio = big median / small median`);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const l of lines) console.log(line(l));
  return missed;
}
