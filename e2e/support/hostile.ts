/**
 * A hostile server under a real browser: Playwright's route interception rewrites the real
 * server's answers before the app sees them. Routes are set on the browser context, so they catch
 * the page, its crypto worker and the download service worker alike (Chromium routes a service
 * worker's fetches through the context). Tamperings of the chunked blob work on the whole
 * ciphertext; a Range request gets its slice of the tampered blob.
 */
import type { BrowserContext } from 'playwright-core';
import type { ItemView } from '../../apps/server/src/domain/files/view.ts';

/**
 * An item as `GET /api/file` lists it: the server's own form (docs/protocol.md "Items"), open to
 * whatever fields a tampering adds.
 */
export type ListedItem = ItemView & { [field: string]: unknown };

export interface ListingAnswer {
  root: ListedItem | null;
  files: ListedItem[];
  [field: string]: unknown;
}

/** docs/protocol.md: 256 KiB of plaintext and a 16-byte tag per chunk. */
export const CIPHER_CHUNK = 262_144 + 16;

/**
 * Every `GET /api/file` answer passes through `edit` (which may change it in place, or return a
 * new one). The real server still answers first; a failed answer is passed on untouched.
 */
export async function rewriteListings(
  context: BrowserContext,
  edit: (answer: ListingAnswer, url: URL) => ListingAnswer | undefined,
): Promise<void> {
  await context.route(
    (url) => url.pathname === '/api/file',
    async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const response = await route.fetch();
      if (!response.ok()) return route.fulfill({ response });
      const answer = (await response.json()) as ListingAnswer;
      const changed = edit(answer, new URL(route.request().url())) ?? answer;
      await route.fulfill({ response, json: changed });
    },
  );
}

/**
 * `GET /api/file/data/{id}` answers `edit(whole ciphertext)`; a Range request gets the asked
 * slice of that (206), as the server would slice a blob that really held those bytes.
 * Answers how many requests were rewritten.
 */
export async function rewriteData(context: BrowserContext, id: string, edit: (blob: Buffer) => Buffer): Promise<() => number> {
  let count = 0;
  await context.route(
    (url) => url.pathname === `/api/file/data/${id}`,
    async (route) => {
      const headers = { ...route.request().headers() };
      const range = headers.range;
      delete headers.range;
      const response = await route.fetch({ headers });
      if (!response.ok()) return route.fulfill({ response });
      const blob = edit(Buffer.from(await response.body()));
      count += 1;
      const base = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
      const asked = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
      if (!asked) return route.fulfill({ status: 200, headers: base, body: blob });
      const start = Number(asked[1]);
      const end = Math.min(asked[2] ? Number(asked[2]) : blob.length - 1, blob.length - 1);
      if (start > end) {
        return route.fulfill({ status: 416, headers: { ...base, 'content-range': `bytes */${blob.length}` } });
      }
      await route.fulfill({
        status: 206,
        headers: { ...base, 'content-range': `bytes ${start}-${end}/${blob.length}` },
        body: blob.subarray(start, end + 1),
      });
    },
  );
  return () => count;
}

/** The ciphertext cut into its chunks (the last may be short). */
export function chunksOf(blob: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < blob.length; at += CIPHER_CHUNK) out.push(blob.subarray(at, at + CIPHER_CHUNK));
  return out;
}

/** The ways a server can reshape a chunked blob (docs/protocol.md "Threat table"). */
export function chunkTamperings(other: Buffer): Record<string, (blob: Buffer) => Buffer> {
  return {
    reordered: (blob) => {
      const c = chunksOf(blob);
      return Buffer.concat([c[1]!, c[0]!, ...c.slice(2)]);
    },
    dropped: (blob) => {
      const c = chunksOf(blob);
      return Buffer.concat([c[0]!, ...c.slice(2)]);
    },
    duplicated: (blob) => {
      const c = chunksOf(blob);
      return Buffer.concat([c[0]!, c[1]!, c[1]!, ...c.slice(2)]);
    },
    'spliced from another file': (blob) => {
      const c = chunksOf(blob);
      return Buffer.concat([c[0]!, chunksOf(other)[1]!, ...c.slice(2)]);
    },
    'truncated at a chunk boundary': (blob) => blob.subarray(0, 2 * CIPHER_CHUNK),
    'a bit flipped': (blob) => {
      const copy = Buffer.from(blob);
      copy[2 * CIPHER_CHUNK + 100] = (copy[2 * CIPHER_CHUNK + 100] ?? 0) ^ 0x04;
      return copy;
    },
  };
}
