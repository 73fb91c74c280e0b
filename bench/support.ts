/** Command-line numbers, percentiles, live-socket listeners and a tab's view of new rows, shared by the benchmarks. */
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startServer, type RunningServer } from '../e2e/support/server.ts';
import { buildWeb } from '../scripts/build-web.ts';

/** Epoch milliseconds with sub-millisecond precision, comparable across processes' clocks. */
export const now = () => performance.timeOrigin + performance.now();

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
 * The app as a person uses it: the web build (unless `--no-build`), a fresh server and one
 * Chromium page at 1280 x 800, all closed after `run`.
 */
export async function withAppInChromium(run: (page: Page, server: RunningServer) => Promise<void>): Promise<void> {
  if (!process.argv.includes('--no-build')) await buildWeb();
  const server = await startServer();
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
