/**
 * Holding a download mid-way: `GET /api/file/data/{id}` is routed on the browser context, which
 * also catches the download service worker's fetches (see hostile.ts). The first request for the
 * file's ciphertext goes to a relay in this process that answers with the real server's headers
 * and the first bytes, then stalls until released: the browser is then really saving the file,
 * part-way, while the transfers panel shows it. Later requests pass straight to the real server.
 *
 * Why not hold the request before any answer: for one file the service worker answers the page's
 * navigation to the download only once the server has answered, so that navigation stays pending.
 * In headless Chromium under Playwright the page then answered nothing (locator waits, evaluate,
 * screenshots and a raw DevTools Runtime.evaluate all hung until the request was let go).
 */
import type { BrowserContext } from 'playwright-core';

export interface HeldData {
  /** Resolves once the relay has sent the first bytes and stalls. */
  readonly stalled: Promise<void>;
  /** How many requests for the file's data the route has seen. */
  seen(): number;
  /** Sends the rest of the held answer (if the browser still reads it). */
  release(): void;
  /** Stops the relay. */
  close(): Promise<void>;
}

/**
 * Holds the first `GET /api/file/data/{id}` after `firstBytes` bytes of the real answer; the
 * rest pass through to the real server.
 */
export async function holdFirstDataMidway(
  context: BrowserContext,
  serverUrl: string,
  id: string,
  firstBytes: number,
): Promise<HeldData> {
  let count = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let stall: () => void = () => {};
  const stalled = new Promise<void>((resolve) => {
    stall = resolve;
  });
  const relay = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const upstream = await fetch(`${serverUrl}${path}`, { headers: { cookie: request.headers.get('cookie') ?? '' } });
      const whole = new Uint8Array(await upstream.arrayBuffer());
      const headers = new Headers(upstream.headers);
      headers.set('content-length', String(whole.length));
      let sentHead = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sentHead) {
            sentHead = true;
            controller.enqueue(whole.subarray(0, firstBytes));
            setTimeout(stall, 200);
            return;
          }
          await released;
          controller.enqueue(whole.subarray(firstBytes));
          controller.close();
        },
      });
      return new Response(body, { status: upstream.status, headers });
    },
  });
  await context.route(
    (url) => url.pathname === `/api/file/data/${id}`,
    async (route) => {
      count += 1;
      if (count > 1) return route.fallback();
      const headers = route.request().headers();
      const cookies = await context.cookies(serverUrl);
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      await route.continue({
        url: `http://127.0.0.1:${relay.port}${new URL(route.request().url()).pathname}`,
        headers: { ...headers, cookie },
      });
    },
  );
  return {
    stalled,
    seen: () => count,
    release,
    close: async () => {
      release();
      await relay.stop(true);
    },
  };
}

/** Fails the first `GET /api/file/data/{id}` at once with a network error; the rest pass through. */
export async function failFirstData(context: BrowserContext, id: string): Promise<() => number> {
  let count = 0;
  await context.route(
    (url) => url.pathname === `/api/file/data/${id}`,
    async (route) => {
      count += 1;
      if (count === 1) return route.abort('failed');
      return route.fallback();
    },
  );
  return () => count;
}
