/**
 * bench/batch: moving a selection of 10,000 items between two folders on the server
 * (docs/benchmarks.md "bench/batch", issue 27 part 3). The items are made through the real API
 * with the real crypto; each move's K is wrapped again for the target folder in Bun first (timed
 * apart: the browser's share of the work). Then, in turn, the whole selection goes through
 * POST /api/file/batch/move (5,000 items a call) and, for comparison in the same run, through one
 * PUT /api/file/{id} per item, four in flight, as the web app's selection bar sends them today.
 * Goal (issue 27): 10,000 items moved within 3 s end to end.
 * Run: bun bench/batch/run.ts [--items=10000] [--runs=3]
 */
import { wrapItemKey } from '@sealbox/crypto';
import { createUser } from '../../e2e/support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, type ApiFolder } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { numberArg, percentile } from '../support.ts';

const ITEMS = numberArg('items', 10_000);
const RUNS = numberArg('runs', 3);
const PER_CALL = 5000;
const GOAL_MS = 3000;

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' } });
  try {
    const owner = await apiLogin(server.url, await createUser(server.url, { username: 'batchowner' }));
    const [a, b] = [await apiCreateFolder(owner, null, 'A'), await apiCreateFolder(owner, null, 'B')];
    const started = performance.now();
    const items = await apiCreateFolders(
      owner,
      a,
      Array.from({ length: ITEMS }, (_, i) => `item ${i}`),
      32,
    );
    console.log(`setup: ${ITEMS} items made through the API in ${secs(performance.now() - started)}`);

    /** Each item's K wrapped for `into` (the browser's part of a move). */
    const wrapAll = async (into: ApiFolder) => {
      return Promise.all(items.map(async (item) => ({ id: item.id, ...(await wrapItemKey(into.key, item.id, item.key)) })));
    };
    const send = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const batchMove = async (into: ApiFolder) => {
      const wrapStarted = performance.now();
      const entries = await wrapAll(into);
      const wrapped = performance.now();
      for (let i = 0; i < entries.length; i += PER_CALL) {
        const { results } = (await send('POST', '/api/file/batch/move', {
          parentId: into.id,
          items: entries.slice(i, i + PER_CALL),
        })) as {
          results: Array<{ ok: boolean }>;
        };
        if (!results.every((r) => r.ok)) throw new Error('a batch move was refused');
      }
      return { wrapMs: wrapped - wrapStarted, serverMs: performance.now() - wrapped };
    };
    const oneByOne = async (into: ApiFolder) => {
      const entries = await wrapAll(into);
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < entries.length) {
            const entry = entries[next++]!;
            await send('PUT', `/api/file/${entry.id}`, { type: 'move', parentId: into.id, ...entry, id: undefined });
          }
        }),
      );
      return performance.now() - t0;
    };

    const batch: number[] = [];
    const wraps: number[] = [];
    const single: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const there = await batchMove(b);
      batch.push(there.serverMs);
      wraps.push(there.wrapMs);
      single.push(await oneByOne(a));
      console.log(
        `run ${run}: batch ${secs(there.serverMs)} (+ wrapping ${secs(there.wrapMs)}), one call per item ${secs(single.at(-1)!)}`,
      );
    }
    const total = percentile(batch, 50) + percentile(wraps, 50);
    console.log(
      `\n${ITEMS} items moved, median of ${RUNS}: batch calls ${secs(percentile(batch, 50))}, wrapping ${secs(percentile(wraps, 50))} ` +
        `-> ${secs(total)} (goal <= ${secs(GOAL_MS)}: ${total <= GOAL_MS ? 'MET' : 'NOT MET'}); one call per item ` +
        `${secs(percentile(single, 50))} (${(percentile(single, 50) / percentile(batch, 50)).toFixed(1)}x the batch)`,
    );
  } finally {
    await server.stop();
  }
}

await main();
