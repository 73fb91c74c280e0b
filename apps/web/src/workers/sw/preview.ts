/**
 * Preview streams (docs/protocol.md "Preview streams"): the service worker answers a media
 * element's Range requests for /__preview/{token} by fetching only the ciphertext chunks that
 * cover the asked plaintext range (`GET /api/file/data/{id}` with Range) and decrypting each chunk
 * alone (docs/protocol.md: its index in nonce and AAD, the last flag on the last), so a 1 GiB video
 * starts and seeks at once. A chunk that fails authentication errors the answer's body, and the
 * media element with it.
 *
 * What is served is only ever an audio or video type, `nosniff`, sandboxed, and only to a media
 * element (request destination audio or video): a navigation or a fetch() gets 403, so nothing
 * decrypted can be opened as a page or read by script from here. A job is kept while its page
 * says it still shows it; it is dropped (key gone) when the page closes it or after PREVIEW_TTL_MS
 * without a read or a keep-alive.
 */
import { CHUNK, chunkCipherRange, cipherRangeForPlain, decryptChunkAt } from '@sealbox/crypto';
import { type BrowseScope, checkedScope } from '../../model/browse-scope.ts';
import { byteCalls, sameOriginFetch } from '../../lib/byte-calls.ts';
import {
  PREVIEW_MEDIA_TYPES,
  PREVIEW_PATH,
  PREVIEW_TTL_MS,
  SW_PREVIEW_ALIVE,
  SW_PREVIEW_CLAIM,
  SW_PREVIEW_CLOSE,
  SW_PREVIEW_KEEP,
  SW_PREVIEW_MESSAGE,
  type PreviewJob,
} from '../../model/transfers.ts';
import { awaitJob, type ExtendableMessageEvent, type FetchEvent, sw, TOKEN } from './scope.ts';

const bytes = byteCalls(sameOriginFetch);

/** Chunks fetched per ciphertext request (1 MiB); one more window is fetched ahead while the first is read. */
export const WINDOW_CHUNKS = 4;

interface HeldStream {
  itemId: string;
  versionId: string | undefined;
  /** Non-extractable: the raw bytes were wiped once imported. */
  key: CryptoKey;
  fileNonce: Uint8Array;
  size: number;
  mime: string;
  scope: BrowseScope;
  timer: ReturnType<typeof setTimeout>;
}

const streams = new Map<string, HeldStream>();

function drop(token: string): void {
  const held = streams.get(token);
  if (!held) return;
  clearTimeout(held.timer);
  streams.delete(token);
}

function touch(token: string): HeldStream | undefined {
  const held = streams.get(token);
  if (!held) return undefined;
  clearTimeout(held.timer);
  held.timer = setTimeout(() => drop(token), PREVIEW_TTL_MS);
  return held;
}

/** The job's browse scope, or undefined for a job that names none (it is refused). */
function scopeOf(job: PreviewJob): BrowseScope | undefined {
  try {
    return checkedScope(job.scope);
  } catch {
    return undefined;
  }
}

async function accept(token: string, job: PreviewJob): Promise<boolean> {
  try {
    const valid =
      typeof job.itemId === 'string' &&
      (job.versionId === undefined || typeof job.versionId === 'string') &&
      job.fileNonce instanceof Uint8Array &&
      job.fileNonce.length === 12 &&
      Number.isSafeInteger(job.size) &&
      job.size >= 0 &&
      PREVIEW_MEDIA_TYPES.has(job.mime);
    if (!valid) return false;
    if (!(job.key instanceof Uint8Array) || job.key.length !== 32) return false;
    const scope = scopeOf(job);
    if (!scope) return false;
    const key = await crypto.subtle.importKey('raw', job.key as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['decrypt']);
    drop(token);
    streams.set(token, {
      itemId: job.itemId,
      versionId: job.versionId,
      key,
      fileNonce: new Uint8Array(job.fileNonce),
      size: job.size,
      mime: job.mime,
      scope,
      timer: setTimeout(() => drop(token), PREVIEW_TTL_MS),
    });
    return true;
  } finally {
    job.key?.fill?.(0);
  }
}

/** Handles the preview messages; false when `event` is not one. */
export function previewMessage(event: ExtendableMessageEvent): boolean {
  const data = event.data as { type?: unknown; token?: unknown; tokens?: unknown } | null;
  if (data?.type === SW_PREVIEW_CLAIM) {
    // A page loaded while this worker was activating is not controlled until it claims it again.
    event.waitUntil(sw.clients.claim());
    return true;
  }
  if (data?.type === SW_PREVIEW_ALIVE) {
    event.ports[0]?.postMessage({ alive: typeof data.token === 'string' && streams.has(data.token) });
    return true;
  }
  if (data?.type === SW_PREVIEW_CLOSE) {
    if (typeof data.token === 'string') drop(data.token);
    return true;
  }
  if (data?.type === SW_PREVIEW_KEEP) {
    if (Array.isArray(data.tokens)) for (const token of data.tokens) if (typeof token === 'string') touch(token);
    return true;
  }
  if (data?.type !== SW_PREVIEW_MESSAGE) return false;
  const port = event.ports[0];
  if (typeof data.token !== 'string' || !TOKEN.test(data.token) || !port) return true;
  const token = data.token;
  awaitJob<PreviewJob>(event, port, (job) => accept(token, job));
  return true;
}

/** Answers /__preview/{token}; false when the request is not for a preview stream. */
export function previewFetch(event: FetchEvent): boolean {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin || !url.pathname.startsWith(PREVIEW_PATH)) return false;
  const request = event.request;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    event.respondWith(refusal(405));
    return true;
  }
  // Only a media element may read a stream: never a navigation (it must not render as a page),
  // never script (fetch/XHR have an empty destination).
  if (request.mode === 'navigate' || (request.destination !== 'audio' && request.destination !== 'video')) {
    event.respondWith(refusal(403));
    return true;
  }
  const held = touch(url.pathname.slice(PREVIEW_PATH.length));
  if (!held) {
    event.respondWith(refusal(404));
    return true;
  }
  event.respondWith(answer(held, request.headers.get('range'), request.method === 'HEAD'));
  return true;
}

/** An empty text answer (a navigation shows a blank page, never a download prompt). */
function refusal(status: number): Response {
  return new Response('', {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
    },
  });
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` as [from, to) of `size`; 'unsatisfiable'; null to send it all. */
export function parseRange(header: string | null, size: number): { from: number; to: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { from: Math.max(0, size - suffix), to: size };
  }
  const from = Number(match[1]);
  const last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (!Number.isSafeInteger(from) || from >= size || last < from) return 'unsatisfiable';
  return { from, to: last + 1 };
}

function headers(held: HeldStream, length: number): Headers {
  return new Headers({
    'content-type': held.mime,
    'content-length': String(length),
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'cross-origin-resource-policy': 'same-origin',
  });
}

function answer(held: HeldStream, rangeHeader: string | null, head: boolean): Response {
  const range = parseRange(rangeHeader, held.size);
  if (range === 'unsatisfiable') {
    const refused = refusal(416);
    refused.headers.set('content-range', `bytes */${held.size}`);
    return refused;
  }
  const { from, to } = range ?? { from: 0, to: held.size };
  const out = headers(held, to - from);
  if (range) out.set('content-range', `bytes ${from}-${to - 1}/${held.size}`);
  const body = head || to === from ? null : plainStream(held, from, to);
  return new Response(body, { status: range ? 206 : 200, headers: out });
}

/** Error codes the stream fails with (the media element only sees a failed load). */
function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Plaintext bytes [from, to): chunks fetched WINDOW_CHUNKS at a time as the media element reads,
 * one window ahead, each chunk decrypted alone and sliced to the range. Cancelling (the element
 * seeks elsewhere) aborts what is still being fetched.
 */
function plainStream(held: HeldStream, from: number, to: number): ReadableStream<Uint8Array> {
  const { firstChunk, lastChunk } = cipherRangeForPlain(from, to, held.size);
  const stop = new AbortController();
  let next = firstChunk;
  let ahead: Promise<Uint8Array[]> | undefined;

  const fetchWindow = async (first: number): Promise<Uint8Array[]> => {
    const last = Math.min(first + WINDOW_CHUNKS - 1, lastChunk);
    const start = chunkCipherRange(first, held.size).start;
    const end = chunkCipherRange(last, held.size).end;
    const response = await bytes.fileData(held.scope, held.itemId, {
      range: { start, end },
      cache: 'no-store',
      signal: stop.signal,
      ...(held.versionId ? { versionId: held.versionId } : {}),
    });
    if (response.status !== 206 && !(response.status === 200 && start === 0)) {
      await response.body?.cancel().catch(() => {});
      throw failure('FETCH_FAILED', `data ${response.status}`);
    }
    const cipher = new Uint8Array(await response.arrayBuffer());
    if (cipher.length < end - start) throw failure('TRUNCATED', 'the encrypted file ended early');
    const plains: Promise<Uint8Array>[] = [];
    for (let index = first; index <= last; index++) {
      const range = chunkCipherRange(index, held.size);
      plains.push(
        decryptChunkAt(held.key, held.fileNonce, index, cipher.subarray(range.start - start, range.end - start), held.size),
      );
    }
    return Promise.all(plains);
  };

  const take = (first: number): Promise<Uint8Array[]> => {
    const window = fetchWindow(first);
    window.catch(() => {}); // awaited in order by pull; this only silences an early rejection
    return window;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const first = next;
          const current = ahead ?? take(first);
          next = Math.min(first + WINDOW_CHUNKS, lastChunk + 1);
          ahead = next <= lastChunk ? take(next) : undefined;
          const plains = await current;
          plains.forEach((plain, offset) => {
            const base = (first + offset) * CHUNK;
            const slice = plain.subarray(Math.max(0, from - base), Math.min(plain.length, to - base));
            if (slice.length > 0) controller.enqueue(slice);
          });
          if (!ahead) controller.close();
        } catch (error) {
          stop.abort();
          controller.error(error);
        }
      },
      cancel() {
        stop.abort();
      },
    },
    { highWaterMark: 0 },
  );
}
