/**
 * Command-line numbers and the short mode, percentiles, live-socket listeners and a tab's view of
 * new rows, shared by the benchmarks.
 */
import type { Page } from 'playwright-core';
import { createUser } from '../e2e/support/accounts.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin } from '../e2e/support/files.ts';
import type { RunningServer } from '../e2e/support/server.ts';
import { buildWeb, ensureWebBuilt } from '../scripts/build-web.ts';

/** Epoch milliseconds with sub-millisecond precision, comparable across processes' clocks. */
export const now = () => performance.timeOrigin + performance.now();

/**
 * `--short`: small sizes and one run, a few seconds, printing the same figure lines as the full
 * run. npm test runs every bench so (bench/short.test.ts) to check it still completes; its
 * figures mean nothing. The full runs are the ones docs/benchmarks.md reports.
 */
export const SHORT = process.argv.includes('--short');

/** `full` in a full run, `short` under `--short`. */
export function sized<T>(full: T, short: T): T {
  return SHORT ? short : full;
}

/**
 * A pause for things to settle before a reading (a server's memory after sockets open, sockets
 * after they connect, a gap between rounds): `ms` in a full run, a tenth of it under `--short`,
 * whose figures mean nothing and whose time is npm test's.
 */
export function settle(ms: number): Promise<void> {
  return Bun.sleep(SHORT ? ms / 10 : ms);
}

/**
 * The web app as the bench serves it. A full run builds it anew (unless `--no-build`), so the
 * figures are of the sources as they are; `--short` builds only when apps/web/dist is missing or
 * older than its sources (the e2e suites' check), so npm test's benches never rebuild a fresh app.
 */
export async function buildWebForBench(): Promise<void> {
  if (SHORT) await ensureWebBuilt();
  else if (!process.argv.includes('--no-build')) await buildWeb();
}

export function numberArg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface Listener {
  socket: WebSocket;
  /** Arrival time of each item.created event by item id. */
  arrivals: Map<string, number>;
}

/** A live socket (as an open tab holds) that records when each item.created event arrives. */
export async function openListener(server: RunningServer, cookie: string): Promise<Listener> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, { headers: { cookie } } as unknown as string[]);
  const arrivals = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { type: string; event?: { kind: string; itemId?: string } };
      if (data.type === 'hello') resolve();
      else if (data.event?.kind === 'item.created' && data.event.itemId) arrivals.set(data.event.itemId, now());
    };
    socket.onclose = () => reject(new Error('socket closed before hello'));
  });
  return { socket, arrivals };
}

export async function waitUntil(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(2);
  }
}

/** Resolves with the page's clock when a row named `wanted` is in its listing. */
export function rowSeen(page: Page, wanted: string): Promise<number> {
  return page.evaluate((name) => {
    const present = () => [...document.querySelectorAll('.browser__body .item-name__text')].some((n) => n.textContent === name);
    return new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!present()) return;
        observer.disconnect();
        resolve(performance.timeOrigin + performance.now());
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  }, wanted);
}

/**
 * The app as a person uses it: the web build (buildWebForBench), a fresh server and one
 * Chromium page at 1280 x 800, all closed after `run`.
 */
export async function withAppInChromium(
  run: (page: Page, server: RunningServer) => Promise<void>,
  serverEnv?: Record<string, string>,
): Promise<void> {
  await buildWebForBench();
  // Loaded here, not above: loading it builds a stale web app, which benches without one (crypto) never need.
  const { startServer } = await import('../e2e/support/server.ts');
  const server = await startServer(serverEnv ? { env: serverEnv } : undefined);
  const context = await launchBrowser();
  if (!context) throw new Error('Chromium is required for this benchmark');
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    await run(page, server);
  } finally {
    await context.close();
    await server.stop();
  }
}

/**
 * The detail of the page's newest `search:index-built` mark (the search index's build, from the
 * app's features/search), once there is one; fails after `timeoutMs`.
 */
export function indexBuiltMark<T>(page: Page, timeoutMs = 180_000): Promise<T> {
  return page.evaluate(
    (timeout) =>
      new Promise<T>((resolve, reject) => {
        const until = performance.now() + timeout;
        const check = () => {
          const mark = performance.getEntriesByName('search:index-built').at(-1) as PerformanceMark | undefined;
          if (mark) resolve(mark.detail as T);
          else if (performance.now() > until) reject(new Error('the search index was not built in time'));
          else setTimeout(check, 50);
        };
        check();
      }),
    timeoutMs,
  );
}

/**
 * Another user going about their work while a bench loads the server: a folder of 100 items of
 * their own, listed whole one call at a time. Answers the call, timed from request to the last
 * byte (warmed up already), for the bystander's p50/p95 idle and during.
 */
export async function bystanderListing(baseUrl: string, username: string): Promise<() => Promise<number>> {
  const bystander = await apiLogin(baseUrl, await createUser(baseUrl, { username }));
  const folder = await apiCreateFolder(bystander, null, 'Work');
  await apiCreateFolders(
    bystander,
    folder,
    Array.from({ length: 100 }, (_, i) => `doc ${i}`),
    16,
  );
  const list = async () => {
    const t0 = performance.now();
    const response = await fetch(`${baseUrl}/api/file?id=${folder.id}&depth=1&limit=2147483648&offset=0`, {
      headers: { cookie: bystander.cookie },
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`listing: ${response.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) await list();
  return list;
}
