/**
 * bench/big-account: an account of 100,000 items end to end (issue 27 part 6; docs/benchmarks.md
 * "bench/big-account"). Makes a big account (100,000 items, its largest folder 10,000, a folder of
 * 10,000 small files, 1,000 items shared with it by other users) and a small one of the same shape
 * (1,000 items plus a zip folder of 1,000 files, 10 shares) through the real API with the real
 * crypto, then in Chromium, a fresh profile per account and run, interleaved: sign-in to the first
 * page of /files and to the storage meter's figure, the largest folder's first page, a search, the
 * zip of the small files (its time and the tab's peak memory) and /shared's list. Each figure is
 * printed as the ratio big/small in the same run, then absolute, against its goal.
 * Run: bun bench/big-account/run.ts [--short] [--runs=5] [--items=100000] [--concurrency=24] [--no-build]
 *   [--only=shared] (the sign-in and /shared only, on small trees with the full shares)
 * SEARCH_SHOT=/path/prefix: a screenshot as the search's first results show (to look at them while
 * the stored index is still opening), one file per search.
 */
import { KDF_V1 } from '@sealbox/crypto';
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { createUser, type TestUser } from '../../e2e/support/accounts.ts';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { apiLogin, ok, type ApiSession } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { meterProblem } from './meter.ts';
import { type MemoryPeaks, mib, sampleMemory } from './memory.ts';
import { downloadZip, fetchProbe, gatherProbe, openFolder, openShared, search, signIn } from './measures.ts';
import { buildWebForBench, indexBuiltMark } from '../support.ts';
import { printTable, type Row } from './report.ts';
import { GOALS, NEEDLE, NEEDLES, ONLY_SHARED, RUNS, SHORT, SIZES, type AccountSize } from './settings.ts';
import { shareWith } from './shares.ts';
import { fewZipFiles, makeTree, TOP_ITEMS, type MadeAccount } from './tree.ts';

interface Account {
  size: AccountSize;
  user: TestUser;
  session: ApiSession;
  made: MadeAccount;
}

/** One run's figures of one account. */
interface Figures {
  signIn: number;
  /** Sign-in's answer (POST /api/login) → the storage meter's figure. */
  meter: number;
  largest: number;
  largestWhole: number;
  search: number;
  /** The stored index's opening on the search's page: ms in all and by phase (the app's mark). */
  searchOpened?: Record<string, number>;
  shared: number;
  sharedWhole: number;
  /** /shared's API calls from the click on, "path start+duration" in ms. */
  sharedCalls: string[];
  zip: number;
  zipPerFile: number;
  /** The zip's central directory, bytes: held by any zip writer until the archive's end. */
  zipCentral: number;
  memory: MemoryPeaks;
  /** The zip of a tenth as many files ("Zip few"), just before it in the same tab. */
  fewMemory: MemoryPeaks;
  /** What every zip of the zip folder must do, alone: its gather in the crypto worker (gatherProbe), then each file fetched in the service worker (fetchProbe). */
  probe: MemoryPeaks;
  /** The same for "Zip few". */
  probeFew: MemoryPeaks;
  probePages: number;
  signInCalls: string[];
  /** The search index's build after sign-in (the page's mark), waited for before the zip. */
  indexMs: number;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The stored index's opening, by phase, as the search's page marked it. */
const opened = (f: Figures) => {
  const o = f.searchOpened;
  if (!o) return '';
  const ms = (key: string) => `${(o[key] ?? Number.NaN).toFixed(0)}`;
  return ` (index of ${o.names} names: names record ${ms('early')} ms, then a pause of ${ms('pause')} ms, whole ${ms('ms')} ms after the screen asked: read ${ms('read')}, open ${ms('open')}, hold ${ms('hold')}, shared ${ms('shared')})`;
};

async function makeAccount(baseUrl: string, size: AccountSize): Promise<Account> {
  const user = await createUser(baseUrl, { username: `${size.label}${Date.now() % 1e6}`, kdf: KDF_V1 });
  const session = await apiLogin(baseUrl, user);
  const started = performance.now();
  const made = await makeTree(session, size);
  const took = performance.now() - started;
  console.log(
    `setup: ${size.label} account, ${made.items} items (largest folder ${size.largest}, zip folder ${size.zipFiles} files) ` +
      `made through the API in ${secs(took)} (${(made.items / (took / 1000)).toFixed(0)} items/s)`,
  );
  return { size, user, session, made };
}

/** Everything in one fresh Chromium profile, checked as it goes; `problems` collects what was wrong on screen. */
async function measureOnce(baseUrl: string, account: Account, problems: string[]): Promise<Figures> {
  const { size, made } = account;
  const context = await launchBrowser();
  if (!context) throw new Error('Chromium is required for this benchmark');
  const wrong = (what: string) => problems.push(`${size.label}: ${what}`);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    const signed = await signIn(page, baseUrl, account.user, TOP_ITEMS);
    const meter = meterProblem(signed.meterSizes, signed.meterPercent, made.usedBytes);
    if (meter) wrong(meter);
    const signInFigures = { signIn: signed.firstPage, meter: signed.meter - signed.answered, signInCalls: signed.calls };
    if (ONLY_SHARED) return { ...NOT_MEASURED, ...signInFigures, ...(await sharedFigures(page, size, wrong)) };

    // The zip first, on a tab that holds only the top listing and the search index (built first,
    // so the build's own memory is not the zip's), so what grows is the zip's.
    if (context.serviceWorkers().length === 0) await context.waitForEvent('serviceworker', { timeout: 30_000 });
    // The sign-in's index build, waited for so its own memory is not the zip's.
    const indexMs = (await indexBuiltMark<{ ms: number }>(page)).ms;
    // A tenth of the files first, in the same tab: how the zip's memory grows with its files
    // alone, the tab and its search index the same (across accounts the crypto worker holds
    // indexes of 2,000 and 100,000 names, and V8 lets garbage grow with what a heap holds).
    const fewSampling = await sampleMemory(context);
    const few = await downloadZip(page, 'Zip few');
    const fewMemory = await fewSampling.stop();
    if (few.entries !== fewZipFiles(size) + 1)
      wrong(`the few files' zip has ${few.entries} entries, expected ${fewZipFiles(size) + 1}`);
    const sampling = await sampleMemory(context);
    const zip = await downloadZip(page, 'Zip me');
    const memory = await sampling.stop();
    if (zip.entries !== size.zipFiles + 1) wrong(`zip has ${zip.entries} entries, expected ${size.zipFiles + 1}`);
    if (zip.bytes < made.zipBytes) wrong(`zip is ${zip.bytes} bytes, less than its files' ${made.zipBytes}`);
    // What every gather must do, alone, for each folder in the same worker: the floor of the zips' garbage.
    const probeFewSampling = await sampleMemory(context);
    await gatherProbe(page, made.zipFew.id);
    await fetchProbe(page, made.zipFew.id);
    const probeFew = await probeFewSampling.stop();
    const probeSampling = await sampleMemory(context);
    const probePages = await gatherProbe(page, made.zip.id);
    if ((await fetchProbe(page, made.zip.id)) !== size.zipFiles) wrong('the fetch probe read another number of files');
    const probe = await probeSampling.stop();

    const largest = await openFolder(page, 'Largest', 'entry ');
    await page.goto(`${baseUrl}/files`);
    const found = await search(page, NEEDLE, NEEDLES);
    if (found.found !== NEEDLES) wrong(`search for "${NEEDLE}" found ${found.found}, expected ${NEEDLES}`);
    return {
      ...signInFigures,
      largest: largest.firstPage,
      largestWhole: largest.whole,
      search: found.first,
      ...(found.opened ? { searchOpened: found.opened } : {}),
      ...(await sharedFigures(page, size, wrong)),
      zip: zip.ms,
      zipPerFile: zip.ms / size.zipFiles,
      zipCentral: zip.centralBytes,
      memory,
      fewMemory,
      probe,
      probeFew,
      probePages,
      indexMs,
    };
  } finally {
    await context.close();
  }
}

const NO_MEMORY: MemoryPeaks = {
  heap: {},
  heapTotal: Number.NaN,
  heapGrowth: Number.NaN,
  growthBy: {},
  rendererPss: Number.NaN,
  rendererPssGrowth: Number.NaN,
  serviceWorkerHalves: [0, 0],
  liveGrowth: Number.NaN,
  liveGrowthBy: {},
  liveAfter: Number.NaN,
  samples: 0,
};

/** What `--only=shared` does not measure (left out of its table). */
const NOT_MEASURED = {
  largest: Number.NaN,
  largestWhole: Number.NaN,
  search: Number.NaN,
  zip: Number.NaN,
  zipPerFile: Number.NaN,
  zipCentral: Number.NaN,
  indexMs: Number.NaN,
  memory: NO_MEMORY,
  fewMemory: NO_MEMORY,
  probe: NO_MEMORY,
  probeFew: NO_MEMORY,
  probePages: 0,
} satisfies Partial<Figures>;

/** /shared's first page and its whole list, checked for the count of shares it says once whole. */
async function sharedFigures(page: Page, size: AccountSize, wrong: (what: string) => void) {
  const shared = await openShared(page, Math.min(20, size.shares));
  if (shared.count !== `${size.shares} items`) wrong(`/shared says "${shared.count}", expected "${size.shares} items"`);
  return { shared: shared.list, sharedWhole: shared.whole, sharedCalls: shared.calls };
}

/** One sign-in in the browser, untimed (it upgrades the password keys). */
async function upgradeKeys(baseUrl: string, user: TestUser): Promise<void> {
  const context = await launchBrowser();
  if (!context) throw new Error('Chromium is required for this benchmark');
  try {
    await signIn(context.pages()[0] ?? (await context.newPage()), baseUrl, user, TOP_ITEMS);
  } finally {
    await context.close();
  }
}

function describe(label: string, f: Figures): string {
  const signedIn = `${label.padEnd(5)} sign-in ${f.signIn.toFixed(0)} ms, meter ${f.meter.toFixed(0)} ms after the sign-in's answer, `;
  const shared = `/shared ${f.shared.toFixed(0)} ms (every share open ${f.sharedWhole.toFixed(0)} ms)`;
  if (ONLY_SHARED) return signedIn + shared;
  return (
    `${signedIn}largest ${f.largest.toFixed(0)} ms (whole ${f.largestWhole.toFixed(0)} ms), search ${f.search.toFixed(0)} ms${opened(f)}, ${shared}, ` +
    `index built ${secs(f.indexMs)} after sign-in, zip of the few (heap growth ${mib(f.fewMemory.heapGrowth)}, crypto worker ${mib(f.fewMemory.growthBy.worker ?? 0)}, PSS growth ${mib(f.fewMemory.rendererPssGrowth)}), zip ${secs(f.zip)} (heap growth ${mib(f.memory.heapGrowth)}: page ${mib(f.memory.growthBy.page ?? 0)}, crypto worker ${mib(f.memory.growthBy.worker ?? 0)}, service worker ${mib(f.memory.growthBy.service_worker ?? 0)}; peak heap page ${mib(f.memory.heap.page ?? 0)}, crypto worker ${mib(f.memory.heap.worker ?? 0)}, ` +
    `service worker ${mib(f.memory.heap.service_worker ?? 0)} (halves ${f.memory.serviceWorkerHalves.map(mib).join(', ')}); renderers' PSS ${mib(f.memory.rendererPss)}; ${f.memory.samples} samples; ` +
    `live growth ${mib(f.memory.liveGrowth)}: page ${mib(f.memory.liveGrowthBy.page ?? 0)}, crypto worker ${mib(f.memory.liveGrowthBy.worker ?? 0)}, service worker ${mib(f.memory.liveGrowthBy.service_worker ?? 0)}; held after ${mib(f.memory.liveAfter)}); ` +
    `probe: ${f.probePages} listing pages and their items' crypto, then each file fetched, alone: heap growth ${mib(f.probe.heapGrowth)} (crypto worker ${mib(f.probe.growthBy.worker ?? 0)}), PSS growth ${mib(f.probe.rendererPssGrowth)}; the few ${mib(f.probeFew.heapGrowth)}, PSS ${mib(f.probeFew.rendererPssGrowth)}`
  );
}

async function main() {
  await buildWebForBench();
  const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' } });
  try {
    console.log(`${SHORT ? 'short run' : 'full run'}; machine load (1-min average, 2 cores) ${loadavg()[0]!.toFixed(2)}`);
    const small = await makeAccount(server.url, SIZES.small);
    const big = await makeAccount(server.url, SIZES.big);
    const started = performance.now();
    await shareWith(server.url, [small.session, big.session], [small.size.shares, big.size.shares]);
    console.log(
      `setup: ${small.size.shares} and ${big.size.shares} items shared by other users in ${secs(performance.now() - started)}`,
    );
    for (const account of [small, big]) {
      const profile = await ok(
        await fetch(`${server.url}/api/profile`, { headers: { cookie: account.session.cookie } }),
        'profile',
      );
      if (profile.usedSpace !== account.made.usedBytes)
        throw new Error(
          `${account.size.label}: the server counts ${profile.usedSpace} bytes used, the bench made ${account.made.usedBytes}`,
        );
    }

    // Untimed: test accounts are made with version-1 password keys (cheap), which the first sign-in
    // in the browser upgrades to version 2 (docs/protocol.md "Account"); an account made in the
    // browser has version 2 from the start, so the timed sign-ins must not include that upgrade.
    // Short runs' figures mean nothing: their one timed sign-in per account does the upgrade.
    if (!SHORT) for (const account of [small, big]) await upgradeKeys(server.url, account.user);

    const problems: string[] = [];
    const figures = { small: [] as Figures[], big: [] as Figures[] };
    const loadBefore = loadavg()[0]!;
    for (let run = 1; run <= RUNS; run++) {
      for (const account of [small, big]) {
        const f = await measureOnce(server.url, account, problems);
        figures[account.size.label as 'small' | 'big'].push(f);
        console.log(`run ${run} ${describe(account.size.label, f)}`);
        console.log(`      sign-in's API calls (ms from the click, start+duration): ${f.signInCalls.join(', ')}`);
        console.log(`      /shared's API calls (ms from the click, start+duration): ${f.sharedCalls.join(', ')}`);
      }
    }
    const loadAfter = loadavg()[0]!;
    const row = (label: string, pick: (f: Figures) => number, goal: Row['goal'], unit: Row['unit'] = 'ms'): Row => ({
      label,
      small: figures.small.map(pick),
      big: figures.big.map(pick),
      goal,
      unit,
    });
    /** A row of the big account alone: what its few files' zip did as "small", its whole zip's as "big". */
    const sameTab = (label: string, few: (f: Figures) => number, all: (f: Figures) => number, goal = GOALS.zipMemory): Row => ({
      label,
      small: figures.big.map(few),
      big: figures.big.map(all),
      goal,
      unit: 'bytes',
    });
    const rows = [
      row('sign-in click → first page of /files', (f) => f.signIn, GOALS.signIn),
      row('sign-in answered → storage meter', (f) => f.meter, GOALS.meter),
      row(`largest folder (${small.size.largest} / ${big.size.largest}) → first page`, (f) => f.largest, GOALS.largest),
      row(`search "${NEEDLE}" → first results`, (f) => f.search, GOALS.search),
      row(`/shared (${small.size.shares} / ${big.size.shares} shares) → list`, (f) => f.shared, GOALS.shared),
      row('/shared → every share open', (f) => f.sharedWhole, GOALS.sharedWhole),
      row(`zip of ${small.size.zipFiles} / ${big.size.zipFiles} files, whole`, (f) => f.zip, GOALS.zip),
      row('zip, time per file', (f) => f.zipPerFile, GOALS.zipPerFile),
      // The zip's memory against its files: both zips in the big account's tab (see fewSampling).
      sameTab(
        `zip in one tab, ${fewZipFiles(big.size)} / ${big.size.zipFiles} files: JS heap growth`,
        (f) => f.fewMemory.heapGrowth,
        (f) => f.memory.heapGrowth,
      ),
      sameTab(
        `zip in one tab, ${fewZipFiles(big.size)} / ${big.size.zipFiles} files: renderers' PSS growth`,
        (f) => f.fewMemory.rendererPssGrowth,
        (f) => f.memory.rendererPssGrowth,
      ),
      sameTab(
        `zip in one tab, ${fewZipFiles(big.size)} / ${big.size.zipFiles} files: live JS heap growth`,
        (f) => f.fewMemory.liveGrowth,
        (f) => f.memory.liveGrowth,
        GOALS.zipHeld,
      ),
      sameTab(
        `probe in one tab, ${fewZipFiles(big.size)} / ${big.size.zipFiles} files: JS heap growth`,
        (f) => f.probeFew.heapGrowth,
        (f) => f.probe.heapGrowth,
        GOALS.zipHeld,
      ),
      sameTab(
        `probe in one tab, ${fewZipFiles(big.size)} / ${big.size.zipFiles} files: renderers' PSS growth`,
        (f) => f.probeFew.rendererPssGrowth,
        (f) => f.probe.rendererPssGrowth,
        GOALS.zipHeld,
      ),
      row(
        "crypto worker's live heap before the zip",
        (f) => (f.memory.heap.worker ?? 0) - (f.memory.growthBy.worker ?? 0),
        GOALS.zipHeld,
        'bytes',
      ),
      row('zip, JS heap growth (peak - before it)', (f) => f.memory.heapGrowth, GOALS.zipHeld, 'bytes'),
      row('zip, crypto worker heap growth (peak)', (f) => f.memory.growthBy.worker ?? Number.NaN, GOALS.zipHeld, 'bytes'),
      row("probe: the zip's gather alone, crypto worker", (f) => f.probe.growthBy.worker ?? Number.NaN, GOALS.zipHeld, 'bytes'),
      row('zip, live JS heap growth (collected first)', (f) => f.memory.liveGrowth, GOALS.zipMemory, 'bytes'),
      row('zip, live JS heap held after it', (f) => f.memory.liveAfter, GOALS.zipHeld, 'bytes'),
      row("zip, its central directory (any writer's floor)", (f) => f.zipCentral, GOALS.zipHeld, 'bytes'),
      row('zip, peak JS heap (page + workers)', (f) => f.memory.heapTotal, GOALS.zipHeld, 'bytes'),
      row("zip, renderers' PSS growth", (f) => f.memory.rendererPssGrowth, GOALS.zipHeld, 'bytes'),
      row("zip, peak renderers' PSS", (f) => f.memory.rendererPss, GOALS.zipHeld, 'bytes'),
    ];
    const missed = printTable(
      // --only=shared measures no folder, search or zip.
      rows.filter((r) => !r.big.some(Number.isNaN)),
      RUNS,
    );
    console.log(
      `machine load (1-min average, 2 cores): ${loadBefore.toFixed(2)} before the timed runs, ${loadAfter.toFixed(2)} after`,
    );
    console.log(`${missed} goal(s) not met`);
    if (problems.length > 0) {
      console.log(`\nWRONG ON SCREEN (${problems.length}):\n  ${[...new Set(problems)].join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

await main();
