/**
 * bench/batch: moving a selection of 10,000 items between two folders on the server
 * (docs/benchmarks.md "bench/batch", issue 27 part 3). The items are made through the real API
 * with the real crypto; each move's K is wrapped again for the target folder in Bun first (timed
 * apart: the browser's share of the work). Then, in turn, the whole selection goes through
 * POST /api/file/batch/move (5,000 items a call) and, for comparison in the same run, through one
 * PUT /api/file/{id} per item, four in flight, as the web app's selection bar sends them today.
 * Goal (issue 27): 10,000 items moved within 3 s end to end.
 * Then in real Chromium (browser.ts): the folder of 10,000 opened in the web app, every item selected
 * with the list's Select all, moved with the selection bar's Move to the other folder, timed from
 * the click on "Move here" to the toast, and to the folder's listing empty; moved back through the
 * API between runs. Median and p95 of --browser-runs.
 * Run: bun bench/batch/run.ts [--items=10000] [--runs=3] [--browser-runs=5] [--no-build] [--no-browser] [--short]
 */
import { wrapItemKey } from '@sealbox/crypto';
import { createUser, loginViaUi, type TestUser } from '../../e2e/support/accounts.ts';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, type ApiFolder } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { buildWebForBench, numberArg, percentile, sized } from '../support.ts';

const ITEMS = numberArg('items', sized(10_000, 200));
const RUNS = numberArg('runs', sized(3, 1));
const BROWSER_RUNS = numberArg('browser-runs', sized(5, 1));
const BROWSER = !process.argv.includes('--no-browser');
const PER_CALL = 5000;
const GOAL_MS = 3000;

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  if (BROWSER) await buildWebForBench();
  const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' } });
  try {
    const user = await createUser(server.url, { username: 'batchowner' });
    const owner = await apiLogin(server.url, user);
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
    if (RUNS > 0) {
      const total = percentile(batch, 50) + percentile(wraps, 50);
      console.log(
        `\n${ITEMS} items moved, median of ${RUNS}: batch calls ${secs(percentile(batch, 50))}, wrapping ${secs(percentile(wraps, 50))} ` +
          `-> ${secs(total)} (goal <= ${secs(GOAL_MS)}: ${total <= GOAL_MS ? 'MET' : 'NOT MET'}); one call per item ` +
          `${secs(percentile(single, 50))} (${(percentile(single, 50) / percentile(batch, 50)).toFixed(1)}x the batch)`,
      );
    }
    if (BROWSER) await inChromium(server.url, user, a.id, () => batchMove(a));
  } finally {
    await server.stop();
  }
}

/** What one move through the web app took, on the page's clock from the click on "Move here". */
interface UiMove {
  toastMs: number;
  emptyMs: number;
  /** Each batch call, sent and answered. */
  calls: Array<{ sent: number; back: number }>;
}

/**
 * The selection bar's move of the whole folder `fromId` to folder B, `runs` times; `moveBack`
 * puts the items back (through the API) between runs.
 */
async function inChromium(url: string, user: TestUser, fromId: string, moveBack: () => Promise<unknown>) {
  const context = await launchBrowser();
  if (!context) throw new Error('Chromium is required for the browser part (--no-browser skips it)');
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    await loginViaUi(page, url, user);
    const moves: UiMove[] = [];
    for (let run = 1; run <= BROWSER_RUNS; run++) {
      // Page size All: Select all takes what the page shows, so the page shows the whole folder.
      await page.goto(`${url}/files?parentId=${fromId}&pageSize=all`);
      await page
        .locator('tbody tr[data-item-id]')
        .nth(ITEMS - 1)
        .waitFor({ state: 'attached', timeout: 120_000 });
      await page.locator('thead').getByRole('checkbox', { name: 'Select all' }).check();
      const bar = page.getByRole('region', { name: 'Selection' });
      await bar.getByText(`${ITEMS} selected`, { exact: true }).waitFor();
      await bar.getByRole('button', { name: 'Move', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Move ${ITEMS} items` });
      await dialog.getByRole('button', { name: /^B\b/ }).click();
      await dialog.getByRole('button', { name: 'Move here' }).waitFor();
      const move = await page.evaluate(async (toast) => {
        const here = [...document.querySelectorAll<HTMLButtonElement>('dialog button')].find(
          (b) => b.textContent?.trim() === 'Move here',
        )!;
        const seen = (check: () => boolean) =>
          new Promise<number>((resolve) => {
            const look = () => {
              if (!check()) return false;
              resolve(performance.now());
              return true;
            };
            if (look()) return;
            const observer = new MutationObserver(() => look() && observer.disconnect());
            observer.observe(document.body, { childList: true, subtree: true, characterData: true });
          });
        // The toasts' region only: reading the whole page's text on each change of 10,000 rows would
        // be most of what is measured.
        const toasted = seen(
          () => document.querySelector('[aria-label^="Notifications"]')?.textContent?.includes(toast) ?? false,
        );
        // When each batch call went out and came back: the worker's re-wrapping comes before the first.
        const calls: Array<{ sent: number; back: number }> = [];
        const fetched = window.fetch;
        window.fetch = Object.assign(async (input: RequestInfo | URL, init?: RequestInit) => {
          const sent = performance.now();
          const response = await fetched(input, init);
          if (String(input instanceof Request ? input.url : input).includes('/batch/move')) {
            calls.push({ sent, back: performance.now() });
          }
          return response;
        }, fetched);
        const empty = seen(() => document.querySelector('tbody tr[data-item-id]') === null);
        const t0 = performance.now();
        here.click();
        const [toastAt, emptyAt] = await Promise.all([toasted, empty]);
        window.fetch = fetched;
        return {
          toastMs: toastAt - t0,
          emptyMs: emptyAt - t0,
          calls: calls.map((call) => ({ sent: call.sent - t0, back: call.back - t0 })),
        };
      }, `Moved ${ITEMS} items to B`);
      moves.push(move);
      const calls = move.calls.map((call) => `${secs(call.sent)}-${secs(call.back)}`).join(', ');
      console.log(
        `browser run ${run}: click -> toast ${secs(move.toastMs)}, -> listing empty ${secs(move.emptyMs)} (batch calls: ${calls})`,
      );
      await moveBack();
    }
    const toast = moves.map((m) => m.toastMs);
    const empty = moves.map((m) => m.emptyMs);
    console.log(
      `\nChromium, ${ITEMS} items moved with the selection bar, ${BROWSER_RUNS} runs: click -> toast median ` +
        `${secs(percentile(toast, 50))} p95 ${secs(percentile(toast, 95))}; -> listing empty median ` +
        `${secs(percentile(empty, 50))} p95 ${secs(percentile(empty, 95))} ` +
        `(goal <= ${secs(GOAL_MS)}: ${percentile(toast, 50) <= GOAL_MS ? 'MET' : 'NOT MET'})`,
    );
  } finally {
    await context.close();
  }
}

await main();
