/**
 * bench/search: first search results with the sealed local index (docs/benchmarks.md
 * "bench/search", issue 27 part 2). Two accounts on one server, of SMALL and LARGE items made
 * through the real API with the real crypto (folders of up to 1,000 names under top-level
 * folders), each with NEEDLES uniquely named folders deep inside. In Chromium, each account signs
 * in and its index is built (timed: the page's `search:index-built` mark); then each run types a
 * needle's name into the search box and times, in the page, from the input event to its result
 * rendered in the list. Median and p95 of --runs, the ratio large/small (goal <= 1.5) and the
 * full rebuild at LARGE (goal <= 30 s in every one of --rebuilds), each with the index database
 * deleted and the page reloaded. Beside it, from Bun, what the server takes to give the whole
 * tree: the old one-call listing (GET /api/file?depth=20) and the pages the build walks now.
 * Run: bun bench/search/run.ts [--small=1000] [--large=100000] [--runs=5] [--rebuilds=5] [--short] [--no-build]
 * --short: 300 and 1,500 items, one run, one rebuild: a check that it works, in seconds.
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, type TestUser } from '../../e2e/support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, type ApiFolder, type ApiSession } from '../../e2e/support/files.ts';
import { TREE_PAGE } from '../../apps/web/src/workers/search-index/tree-walk.ts';
import type { RunningServer } from '../../e2e/support/server.ts';
import { indexBuiltMark, numberArg, percentile, sized, withAppInChromium } from '../support.ts';

const SMALL = numberArg('small', sized(1000, 300));
const LARGE = numberArg('large', sized(100_000, 1500));
const RUNS = numberArg('runs', sized(5, 1));
const REBUILDS = numberArg('rebuilds', sized(5, 1));
const NEEDLES = 8;
const PER_FOLDER = 1000;
const RATIO_GOAL = 1.5;
const REBUILD_GOAL_MS = 30_000;

const ms = (value: number) => `${value.toFixed(0)} ms`;
const median = (values: number[]) => percentile(values, 50);

/** `total` items: top-level folders each holding up to PER_FOLDER folders, and the needles in the last one. */
async function makeTree(owner: ApiSession, total: number): Promise<void> {
  const tops = Math.max(1, Math.ceil(total / (PER_FOLDER + 1)));
  let left = total - NEEDLES;
  let last: ApiFolder | undefined;
  for (let t = 0; t < tops && left > 0; t++) {
    const top = await apiCreateFolder(owner, null, `area ${t}`);
    left--;
    const here = Math.min(PER_FOLDER, left);
    await apiCreateFolders(
      owner,
      top,
      Array.from({ length: here }, (_, i) => `doc ${t}-${i}`),
      32,
    );
    left -= here;
    last = top;
  }
  await apiCreateFolders(
    owner,
    last ?? null,
    Array.from({ length: NEEDLES }, (_, i) => `needle report ${i}`),
    8,
  );
}

interface Built {
  ms: number;
  names: number;
  phases: { fetch: number; parse: number; open: number; seal: number; write: number; pages: number };
}

const phasesText = ({ phases: p }: Built) =>
  `${p.pages} pages; waited for pages ${ms(p.fetch)}, parsed ${ms(p.parse)}, opened ${ms(p.open)}, sealed ${ms(p.seal)}, written ${ms(p.write)}`;

/** One GET from Bun with the session: time to the headers (the server's work), to the last byte, and the bytes. */
async function timedGet(session: ApiSession, path: string) {
  const started = performance.now();
  const response = await fetch(`${session.baseUrl}${path}`, { headers: { cookie: session.cookie } });
  const headers = performance.now() - started;
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return {
    headers,
    total: performance.now() - started,
    bytes: body.byteLength,
    json: () => JSON.parse(new TextDecoder().decode(body)),
  };
}

/** What the server takes to give the whole tree: the old one-call listing, then the pages of GET /api/file/tree. */
async function serverSide(session: ApiSession, items: number): Promise<void> {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const old = await timedGet(session, '/api/file?depth=20&limit=2147483648');
  console.log(
    `${items.toLocaleString('en')} items, from Bun: GET /api/file?depth=20 headers after ${ms(old.headers)}, whole ${ms(old.total)}, ${mb(old.bytes)}`,
  );
  let after: string | null = null;
  let pages = 0;
  let bytes = 0;
  let slowest = 0;
  const started = performance.now();
  do {
    const page = await timedGet(
      session,
      `/api/file/tree?limit=${TREE_PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    );
    pages++;
    bytes += page.bytes;
    slowest = Math.max(slowest, page.total);
    after = page.json().next;
  } while (after !== null);
  console.log(
    `${items.toLocaleString('en')} items, from Bun: GET /api/file/tree ${pages} pages of ${TREE_PAGE} in ${ms(performance.now() - started)}, slowest page ${ms(slowest)}, ${mb(bytes)}`,
  );
}

/** Signed in, with the index built; answers how long the build took in the page. */
async function signInAndIndex(page: Page, baseUrl: string, user: TestUser): Promise<Built> {
  await loginViaUi(page, baseUrl, user);
  await page.getByRole('heading', { name: 'My Files' }).waitFor();
  return indexBuiltMark<Built>(page);
}

/** Types `query` and answers the page's time from the input event to `expected` shown in the results. */
async function timeSearch(page: Page, query: string, expected: string): Promise<number> {
  const box = page.getByPlaceholder('Search files...');
  await box.fill('');
  await page.getByRole('list', { name: 'Search results' }).waitFor({ state: 'detached' });
  const seen = page.evaluate((name) => {
    const input = document.querySelector<HTMLInputElement>('input[placeholder="Search files..."]')!;
    return new Promise<number>((resolve) => {
      let typed = 0;
      input.addEventListener('input', () => (typed = performance.now()), { capture: true, once: true });
      const found = () =>
        [...document.querySelectorAll('[aria-label="Search results"] .search-result__name')].some((n) => n.textContent === name);
      const observer = new MutationObserver(() => {
        if (!typed || !found()) return;
        observer.disconnect();
        resolve(performance.now() - typed);
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  }, expected);
  await box.fill(query);
  return seen;
}

/** The full build from nothing: the index database deleted, the page loaded again. */
async function rebuild(page: Page): Promise<Built> {
  await page.evaluate(async () => {
    for (const db of await indexedDB.databases()) if (db.name?.startsWith('sealbox-search-')) indexedDB.deleteDatabase(db.name);
  });
  await page.reload();
  await page.getByRole('heading', { name: 'My Files' }).waitFor();
  return indexBuiltMark<Built>(page);
}

const loadText = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

async function main(first: Page, server: RunningServer) {
  const accounts: Array<{ items: number; user: TestUser }> = [];
  for (const items of [SMALL, LARGE]) {
    const user = await createUser(server.url, { username: `search${items}` });
    const started = performance.now();
    const session = await apiLogin(server.url, user);
    await makeTree(session, items);
    console.log(`setup: ${items.toLocaleString('en')} items made through the API in ${ms(performance.now() - started)}`);
    accounts.push({ items, user });
    if (items === LARGE) await serverSide(session, items);
  }

  const firstResults = new Map<number, number[]>();
  const rebuilds: number[] = [];
  for (const { items, user } of accounts) {
    const page = await first.context().newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const built = await signInAndIndex(page, server.url, user);
    const count = items.toLocaleString('en');
    console.log(
      `${count} items: index built in ${ms(built.ms)} (${built.names.toLocaleString('en')} names; ${phasesText(built)})`,
    );
    // One warm-up search (the first one compiles the code paths), then the timed runs.
    await timeSearch(page, 'needle report 0', 'needle report 0');
    const times: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const needle = `needle report ${run % NEEDLES}`;
      times.push(await timeSearch(page, needle, needle));
    }
    firstResults.set(items, times);
    const each = times.map((t) => t.toFixed(0)).join(', ');
    console.log(`${count} items: first results median ${ms(median(times))}, p95 ${ms(percentile(times, 95))} (${each})`);
    if (items === LARGE) {
      for (let run = 1; run <= REBUILDS; run++) {
        const rebuilt = await rebuild(page);
        rebuilds.push(rebuilt.ms);
        console.log(`${count} items: full rebuild ${ms(rebuilt.ms)} (goal <= ${ms(REBUILD_GOAL_MS)}; ${phasesText(rebuilt)})`);
      }
      const each = rebuilds.map((t) => (t / 1000).toFixed(1)).join(', ');
      console.log(
        `${count} items: full rebuild median ${ms(median(rebuilds))}, p95 ${ms(percentile(rebuilds, 95))} (${each} s; ${loadText()})`,
      );
    }
    await page.close();
  }
  const ratio = median(firstResults.get(LARGE)!) / median(firstResults.get(SMALL)!);
  const verdict = (met: boolean) => (met ? 'met' : 'not met');
  console.log(
    `ratio of medians ${LARGE.toLocaleString('en')}/${SMALL.toLocaleString('en')}: ${ratio.toFixed(2)} (goal <= ${RATIO_GOAL}: ${verdict(ratio <= RATIO_GOAL)})`,
  );
  const worst = Math.max(...rebuilds);
  console.log(
    `full rebuild at ${LARGE.toLocaleString('en')}, every one of ${rebuilds.length}: ${verdict(worst <= REBUILD_GOAL_MS)}`,
  );
}

await withAppInChromium(main, { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' });
