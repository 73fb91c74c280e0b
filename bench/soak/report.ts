/**
 * The printed figures: requests and statuses, 5xx and failed checks, lost and corrupted files,
 * the storage checks, p50/p99 latency per route and the server's RSS every 10 s.
 */
import { percentile } from '../support.ts';
import type { FileCheck, StorageCheck } from './checks.ts';
import { tally } from './client.ts';

export interface RssSample {
  at: number;
  mib: number;
}

export function printReport(run: {
  seconds: number;
  actions: number;
  users: number;
  events: number;
  files: FileCheck;
  storage: StorageCheck;
  rssSamples: RssSample[];
}) {
  const { seconds, actions, rssSamples } = run;
  const { files, lost, corrupted } = run.files;
  const { quotaOff, orphans, missing } = run.storage;
  const { latencies, statuses, fiveHundreds, failures } = tally;
  const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\nran ${seconds.toFixed(0)} s: ${actions} actions, ${requests} HTTP requests (${(requests / seconds).toFixed(1)}/s)`,
  );
  console.log(
    `statuses: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join('  ')}`,
  );
  console.log(`5xx: ${fiveHundreds.length}   network errors: ${tally.networkErrors}   failed checks: ${tally.checkFailures}`);
  for (const line of [...new Set(fiveHundreds)].slice(0, 10)) console.log(`  5xx: ${line}`);
  for (const line of failures.slice(0, 10)) console.log(`  failed: ${line}`);
  console.log(`files at the end: ${files}, re-downloaded whole and decrypted: lost ${lost}, corrupted ${corrupted}`);
  console.log(`usedSpace != bytes stored: ${quotaOff} users; blobs without a row: ${orphans}; rows without a blob: ${missing}`);
  console.log(`live events received on the ${run.users} sockets: ${run.events}`);
  console.log('\nlatency per route (ms, whole answer):');
  console.log(`${'route'.padEnd(40)} ${'n'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
  for (const [route, values] of [...latencies].sort((a, b) => a[0].localeCompare(b[0]))) {
    console.log(
      `${route.padEnd(40)} ${String(values.length).padStart(6)} ${percentile(values, 50).toFixed(1).padStart(8)} ${percentile(
        values,
        99,
      )
        .toFixed(1)
        .padStart(8)} ${Math.max(...values)
        .toFixed(1)
        .padStart(8)}`,
    );
  }
  console.log('\nserver RSS (MiB) every 10 s:');
  console.log(rssSamples.map((s) => `${s.at}s ${s.mib.toFixed(0)}`).join(', '));
  const third = Math.max(1, Math.floor(rssSamples.length / 3));
  const mean = (xs: typeof rssSamples) => xs.reduce((sum, s) => sum + s.mib, 0) / xs.length;
  const middle = mean(rssSamples.slice(third, 2 * third));
  const last = mean(rssSamples.slice(-third));
  console.log(
    `RSS mean, middle third ${middle.toFixed(0)} MiB, last third ${last.toFixed(0)} MiB (${(((last - middle) / middle) * 100).toFixed(1)}%); max ${Math.max(...rssSamples.map((s) => s.mib)).toFixed(0)} MiB`,
  );
}
