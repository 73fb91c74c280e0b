/**
 * bench/trash: deleting a folder of 10,000 items to the trash and restoring it, on the server
 * (docs/benchmarks.md "bench/trash"), with TRASH_RETENTION_DAYS=30. The tree is made through the
 * real API with the real crypto (100 folders of 99 folders, and 50 files with blobs). Each run
 * times DELETE /api/file/{id} (to the trash) and POST /api/trash/{id}/restore, request sent to
 * answer received, while a bystander lists its own folder of 100 items one call after the other;
 * its p95 during the runs is set against its idle p95, same run. Last, the tree is deleted for good
 * from the trash, for comparison.
 * Goal (issue 25): each within 2 s on the server; other users' calls unaffected (p95 at most 2x idle).
 * Run: bun bench/trash/run.ts [--runs=200] [--folders=100] [--per-folder=99] [--files=50] [--short]
 */
import { createUser } from '../../e2e/support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, apiUploadFile } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { bystanderListing, numberArg, percentile, sized } from '../support.ts';

const RUNS = numberArg('runs', sized(200, 2));
const FOLDERS = numberArg('folders', sized(100, 5));
const PER_FOLDER = numberArg('per-folder', sized(99, 9));
const FILES = numberArg('files', sized(50, 3));
const IDLE_CALLS = sized(400, 20);
const GOAL_MS = 2000;
const GOAL_RATIO = 2;

const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;

async function main() {
  const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn', TRASH_RETENTION_DAYS: '30' } });
  try {
    const owner = await apiLogin(server.url, await createUser(server.url, { username: 'trashowner' }));
    const root = await apiCreateFolder(owner, null, 'Everything');
    const started = performance.now();
    const tops = await apiCreateFolders(
      owner,
      root,
      Array.from({ length: FOLDERS }, (_, i) => `top ${i}`),
      32,
    );
    for (const top of tops) {
      await apiCreateFolders(
        owner,
        top,
        Array.from({ length: PER_FOLDER }, (_, i) => `sub ${i}`),
        32,
      );
    }
    for (let i = 0; i < FILES; i++) {
      await apiUploadFile(owner, root, `photo ${i}.jpg`, crypto.getRandomValues(new Uint8Array(20_000)), 'image/jpeg');
    }
    const items = 1 + FOLDERS * (1 + PER_FOLDER) + FILES;
    console.log(`setup: ${items} items made through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const list = await bystanderListing(server.url, 'trashbystander');
    const idle: number[] = [];
    for (let i = 0; i < IDLE_CALLS; i++) idle.push(await list());

    const call = async (method: string, path: string) => {
      const t0 = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
      return performance.now() - t0;
    };
    const during: number[] = [];
    let busy = true;
    const listing = (async () => {
      while (busy) during.push(await list());
    })();
    const trashed: number[] = [];
    const restored: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      trashed.push(await call('DELETE', `/api/file/${root.id}`));
      restored.push(await call('POST', `/api/trash/${root.id}/restore`));
    }
    busy = false;
    await listing;
    // For comparison: the same tree deleted for good (the purge, in batches, at full speed: its
    // user waits for the answer), with the bystander's figures beside it.
    await call('DELETE', `/api/file/${root.id}`);
    const purging: number[] = [];
    busy = true;
    const beside = (async () => {
      while (busy) purging.push(await list());
    })();
    const forGood = await call('DELETE', `/api/trash/${root.id}`);
    busy = false;
    await beside;
    const ratio = percentile(during, 95) / percentile(idle, 95);
    const worst = Math.max(...trashed, ...restored);
    console.log(
      `\n${items} items, ${RUNS} runs: to the trash median ${fmt(percentile(trashed, 50))} p95 ` +
        `${fmt(percentile(trashed, 95))} (max ${fmt(Math.max(...trashed))}), ` +
        `restored median ${fmt(percentile(restored, 50))} (max ${fmt(Math.max(...restored))}) -> goal <= ${GOAL_MS} ms ` +
        `${worst <= GOAL_MS ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `deleted for good from the trash (the purge): ${fmt(forGood)}; bystander meanwhile p50 ` +
        `${fmt(percentile(purging, 50))} p95 ${fmt(percentile(purging, 95))} (${purging.length} calls)`,
    );
    console.log(
      `bystander listing (100 items): idle p50 ${fmt(percentile(idle, 50))} p95 ${fmt(percentile(idle, 95))}, during p50 ` +
        `${fmt(percentile(during, 50))} p95 ${fmt(percentile(during, 95))} (${during.length} calls) | p95 ratio ` +
        `${ratio.toFixed(2)} (goal <= ${GOAL_RATIO}) -> ${ratio <= GOAL_RATIO ? 'MET' : 'NOT MET'}`,
    );
  } finally {
    await server.stop();
  }
}

await main();
