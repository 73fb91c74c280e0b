/**
 * bench/transfer: a 1 GiB file through the app in Chromium against the real server, beside a
 * plain transfer of the same bytes to the same server in the same run.
 *
 * - upload: the app (Upload overlay -> crypto worker: file.stream(), AES-GCM chunks, parts of
 *   PART_BYTES, 3 in flight) vs a plain upload from the page (slices of the file as the same
 *   parts, 3 PUTs in flight, no encryption) through the same part protocol.
 * - download and save: the app (service worker: fetch, decrypt, stream to disk) vs the browser
 *   saving GET /api/file/data/{id} (an attachment) directly.
 * - renderer memory: peak growth over each transfer of this browser's renderer processes (the
 *   page, its workers and the service worker live there), sampled every 200 ms from /proc, by
 *   kind: private (RssAnon: what the page holds; the limit applies here), shared (RssShmem:
 *   Chromium's data pipes carrying file and network bytes) and their RSS.
 *
 * Playwright is kept out of the way entirely: with its DevTools network tracking attached,
 * Chromium's request bodies slow to ~1/10 (16 PUTs of 8 MiB: 13.2 s attached vs 1.2 s bare,
 * measured here). So this bench starts Chromium itself and drives it over a bare DevTools
 * connection (Runtime, DOM.setFileInputFiles, Browser download events; Network never enabled).
 * - download vs passthrough (issue 13): the app's download and save against a service worker that
 *   answers with the fetched ciphertext untouched (the ceiling of any streamed service-worker
 *   answer), alternated --pairs times; the target applies to the median ratio.
 *   A third variant, alternated with the two: a service worker that streams the same file's
 *   ciphertext (encrypted here with the bench's own key) and only decrypts it (AES-GCM per 256 KiB
 *   chunk, the app's format): the ceiling once the unavoidable decrypt is paid.
 * - upload vs upload probe (issue 27 part 5): the app's upload alternated --pairs times with a
 *   probe that only streams the file, encrypts each chunk and sends the parts (probe-workers.ts).
 * Run: bun bench/transfer/run.ts [--mib=1024] [--no-build] [--skip-download] [--threads] [--pairs=3] [--short]   (SEALBOX_E2E_WEB_DIST: another build)
 * --skip-download measures the upload half only (the app's upload is then checked by the e2e tests, not here);
 * --threads adds the renderer's CPU seconds by thread (renderer:DedicatedWorker is the crypto worker).
 * --short: 16 MiB, one pair; a missed target is printed but does not fail the run (at that size the
 * figures are mostly fixed costs), a wrong byte still does.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser } from '../../e2e/support/accounts.ts';
import { startServer } from '../../e2e/support/server.ts';
import { buildWebForBench, SHORT } from '../support.ts';
import { launchBare } from './cdp.ts';
import { encryptFile, makeFile, sha256File } from './files.ts';
import { login } from './page.ts';
import {
  DECRYPT_SCRIPT,
  DECRYPT_SW,
  PASSTHROUGH_SCRIPT,
  PASSTHROUGH_SW,
  UPLOAD_PROBE_SCRIPT,
  UPLOAD_PROBE_WORKER,
} from './probe-workers.ts';
import { type Report, reportComparison, reportProbePairs, reportUploadPairs } from './report.ts';
import { measureDownloads, measureProbePairs, measureUploadPairs, measureUploads } from './runs.ts';
import { MIB, PAIRS, SIZE, SKIP_DOWNLOAD } from './settings.ts';

async function main() {
  if (!process.env.SEALBOX_E2E_WEB_DIST) await buildWebForBench();
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-bench-transfer-'));
  // The built app plus the passthrough probe's service worker.
  const webDist = join(dir, 'web');
  await cp(process.env.SEALBOX_E2E_WEB_DIST ?? new URL('../../apps/web/dist', import.meta.url).pathname, webDist, {
    recursive: true,
  });
  await writeFile(join(webDist, PASSTHROUGH_SCRIPT), PASSTHROUGH_SW);
  await writeFile(join(webDist, UPLOAD_PROBE_SCRIPT), UPLOAD_PROBE_WORKER);
  const name = 'bench-transfer.bin';
  const path = join(dir, name);
  await makeFile(path, SIZE);
  const original = SKIP_DOWNLOAD ? '' : await sha256File(path);
  // The same bytes encrypted with the bench's own key, for the passthrough + decrypt probe.
  const probeKey = randomBytes(32);
  const probeNonce = randomBytes(12);
  const cipherPath = join(dir, 'bench-transfer.cipher');
  if (!SKIP_DOWNLOAD) await encryptFile(path, cipherPath, SIZE, probeKey, probeNonce);
  await writeFile(join(webDist, DECRYPT_SCRIPT), DECRYPT_SW(probeKey, probeNonce, SIZE));
  const server = await startServer({
    env: {
      RATE_LIMITS: 'off',
      DEFAULT_QUOTA_BYTES: String((8 + 2 * PAIRS) * SIZE + 64 * MIB),
      WEB_DIST: webDist,
    },
  });
  const page = await launchBare();
  const report: Report = { lines: [], failed: false };
  try {
    const user = await createUser(server.url);
    await login(page, server.url, user.username, user.password);
    console.log(
      `transfer: ${SIZE / MIB} MiB, Chromium (bare DevTools connection), server on 127.0.0.1 (SQLite + disk), same run`,
    );
    const up = await measureUploads(page, server.url, path);
    reportComparison(report, 'upload', up.app, up.plain);
    reportUploadPairs(report, await measureUploadPairs(page, server.url, path, up.app));
    if (!SKIP_DOWNLOAD) {
      const down = await measureDownloads(page, server.url, up.plain.value, name, original);
      reportComparison(report, 'download + save', down.app, down.plain);
      report.lines.push('app download sha-256 matches the original: true');
      const pairs = await measureProbePairs(
        page,
        { origin: server.url, name, plainId: up.plain.value, cipherPath, original },
        down.app,
      );
      reportProbePairs(report, pairs);
    }
  } finally {
    await page.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
  for (const line of report.lines) console.log(line);
  if (report.failed && !SHORT) process.exitCode = 1;
}

if (import.meta.main) await main();
