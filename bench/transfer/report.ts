/**
 * The printed figures: each transfer beside its baseline (time, speed, ratio against the target,
 * renderer growth, CPU seconds), the probe pairs and their medians. Lines are collected while the
 * bench runs and printed once it has cleaned up; any target missed fails the run.
 */
import type { Measured, Memory } from './measure.ts';
import type { ProbePair, UploadPair } from './runs.ts';
import { MEMORY_LIMIT, MIB, PASSTHROUGH_TARGET, RATIO_TARGET, SIZE, UPLOAD_PROBE_TARGET } from './settings.ts';

export interface Report {
  lines: string[];
  failed: boolean;
}

const mbps = (bytes: number, ms: number) => bytes / MIB / (ms / 1000);
const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
const memory = (g: Memory) =>
  `private ${mib(g.anon)}, shared ${mib(g.shmem)}, rss ${mib(g.rss)} (other Chromium processes: private ${mib(g.others)})`;
const cpu = (c: Record<string, number>) =>
  Object.entries(c)
    .filter(([, s]) => s >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([k, s]) => `${k} ${s.toFixed(1)}`)
    .join(', ');
const medianOf = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

/** The app against the plain transfer of the same bytes: the ratio and the app's private growth have targets. */
export function reportComparison(report: Report, label: string, app: Measured<unknown>, plain: Measured<unknown>) {
  const ratio = plain.ms / app.ms;
  const ok = ratio >= RATIO_TARGET && app.growth.anon <= MEMORY_LIMIT;
  if (!ok) report.failed = true;
  report.lines.push(
    `${label.padEnd(16)} app ${(app.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, app.ms).toFixed(0).padStart(4)} MiB/s` +
      ` | plain ${(plain.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, plain.ms).toFixed(0).padStart(4)} MiB/s` +
      ` | ratio ${ratio.toFixed(2)} (target >= ${RATIO_TARGET})` +
      `\n${' '.repeat(17)}renderer growth: app ${memory(app.growth)}; plain ${memory(plain.growth)} (limit ${MEMORY_LIMIT / MIB} MiB private)` +
      `\n${' '.repeat(17)}cpu seconds: app ${cpu(app.cpu)}; plain ${cpu(plain.cpu)}` +
      (ok ? '' : '  << MISSED'),
  );
}

/** Each pair, then the medians: the target applies to the median app/passthrough ratio and the worst app growth. */
export function reportProbePairs(report: Report, pairs: ProbePair[]) {
  const ratios = pairs.map((p) => p.probe.ms / p.app.ms);
  const median = medianOf(ratios);
  const worstGrowth = Math.max(...pairs.map((p) => p.app.growth.anon));
  const met = median >= PASSTHROUGH_TARGET && worstGrowth <= MEMORY_LIMIT;
  if (!met) report.failed = true;
  for (const [i, p] of pairs.entries()) {
    report.lines.push(
      `vs passthrough   app ${(p.app.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, p.app.ms).toFixed(0).padStart(4)} MiB/s` +
        ` | passthrough sw ${(p.probe.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, p.probe.ms).toFixed(0).padStart(4)} MiB/s` +
        ` | ratio ${ratios[i]!.toFixed(2)} (target >= ${PASSTHROUGH_TARGET})` +
        `\n${' '.repeat(17)}renderer growth: app ${memory(p.app.growth)}; passthrough ${memory(p.probe.growth)}` +
        `\n${' '.repeat(17)}cpu seconds: app ${cpu(p.app.cpu)}; passthrough ${cpu(p.probe.cpu)}` +
        `\n${' '.repeat(17)}passthrough + decrypt sw ${(p.decrypt.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, p.decrypt.ms).toFixed(0).padStart(4)} MiB/s` +
        ` | app/passthrough ${ratios[i]!.toFixed(2)}, app/(passthrough+decrypt) ${(p.decrypt.ms / p.app.ms).toFixed(2)}, (passthrough+decrypt)/passthrough ${(p.probe.ms / p.decrypt.ms).toFixed(2)}` +
        `\n${' '.repeat(17)}passthrough + decrypt: renderer growth ${memory(p.decrypt.growth)}; cpu seconds ${cpu(p.decrypt.cpu)}`,
    );
  }
  report.lines.push(
    `ceiling probe (speed ratios, time of the other over time of the first): median app/(passthrough+decrypt) ${medianOf(pairs.map((p) => p.decrypt.ms / p.app.ms)).toFixed(2)}, (passthrough+decrypt)/passthrough ${medianOf(pairs.map((p) => p.probe.ms / p.decrypt.ms)).toFixed(2)}; passthrough + decrypt sha-256 matches the original: true`,
  );
  report.lines.push(
    `download + save vs passthrough service worker (${pairs.length} pairs, alternated): median ratio ${median.toFixed(2)} (worst ${Math.min(...ratios).toFixed(2)}), app renderer growth <= ${mib(worstGrowth)}: ${met ? 'met' : 'NOT met'}`,
  );
}

/** Each upload pair, then the median app/probe speed ratio, which has the target (issue 27 part 5). */
export function reportUploadPairs(report: Report, pairs: UploadPair[]) {
  const ratios = pairs.map((p) => p.probe.ms / p.app.ms);
  const median = medianOf(ratios);
  const met = median >= UPLOAD_PROBE_TARGET;
  if (!met) report.failed = true;
  for (const [i, p] of pairs.entries()) {
    report.lines.push(
      `vs upload probe  app ${(p.app.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, p.app.ms).toFixed(0).padStart(4)} MiB/s` +
        ` | probe ${(p.probe.ms / 1000).toFixed(2).padStart(6)} s ${mbps(SIZE, p.probe.ms).toFixed(0).padStart(4)} MiB/s` +
        ` | ratio ${ratios[i]!.toFixed(2)} (target >= ${UPLOAD_PROBE_TARGET})` +
        `\n${' '.repeat(17)}renderer growth: app ${memory(p.app.growth)}; probe ${memory(p.probe.growth)}` +
        `\n${' '.repeat(17)}cpu seconds: app ${cpu(p.app.cpu)}; probe ${cpu(p.probe.cpu)}`,
    );
  }
  report.lines.push(
    `upload vs upload probe (${pairs.length} pairs, alternated): median ratio ${median.toFixed(2)} (worst ${Math.min(...ratios).toFixed(2)}): ${met ? 'met' : 'NOT met'}`,
  );
}
