/**
 * The download service worker (served as /sw.js, scope '/'): streams a file, or a zip of many,
 * from ciphertext on the server to the user's disk, decrypting on the way, so no tab ever holds
 * a whole file (docs/protocol.md "Files and uploads").
 *
 * How a download reaches it: the page makes a MessageChannel and a random token, posts
 * { type: 'sealbox-download', token } with one port to this worker and hands the other port to
 * the crypto worker, which posts the job (ids, names, item keys, file nonces, sizes) here. Only
 * then does the page open /__download/{token}; this worker answers it once and forgets the job.
 * Answers are attachments of type application/octet-stream (docs/protocol.md "Threat table"):
 * nothing decrypted is ever rendered as a page.
 *
 * It also serves preview streams of audio and video to media elements, with HTTP Range
 * (sw/preview.ts, /__preview/{token}). Every other request passes through untouched.
 */
import { concat, decryptBody } from '@sealbox/crypto';
import { byteCalls, sameOriginFetch } from '../lib/byte-calls.ts';
import { type BrowseScope, checkedScope } from '../model/browse-scope.ts';
import { contentDisposition } from '../model/transfer-plan.ts';
import {
  DOWNLOAD_PATH,
  SW_CANCEL_MESSAGE,
  SW_CANCELLED_MESSAGE,
  SW_ERROR_MESSAGE,
  SW_MESSAGE,
  SW_PROGRESS_MESSAGE,
  type DownloadEntry,
  type DownloadJob,
  wipeJob,
} from '../model/transfers.ts';
import { previewFetch, previewMessage } from './sw/preview.ts';
import { exactLength } from './transfers/exact-length.ts';
import { awaitJob, sw, TOKEN } from './sw/scope.ts';
import { fetchingAhead } from './fetch-ahead.ts';
import { planZip, zipStream } from './zip.ts';
import { columnFile, columnsFit, columnsSource } from '../model/zip-columns.ts';

const bytes = byteCalls(sameOriginFetch);

/** A job not claimed within this time is dropped (and its keys wiped). */
const JOB_TTL_MS = 60_000;

const jobs = new Map<string, { job: DownloadJob; timer: ReturnType<typeof setTimeout> }>();
/** Downloads being streamed, by token: how to stop each (the page's Cancel). */
const streaming = new Map<string, () => void>();
/** How often a download's progress is reported to the pages (its transfers panel row). */
const PROGRESS_MS = 400;

sw.addEventListener('install', () => {
  void sw.skipWaiting();
});

sw.addEventListener('activate', (event) => {
  // Take the open tabs at once: a first download must not wait for a reload.
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener('message', (event) => {
  if (previewMessage(event)) return;
  const data = event.data as { type?: unknown; token?: unknown } | null;
  if (data?.type === SW_CANCEL_MESSAGE && typeof data.token === 'string') {
    cancelDownload(data.token);
    return;
  }
  if (data?.type !== SW_MESSAGE || typeof data.token !== 'string' || !TOKEN.test(data.token)) return;
  const port = event.ports[0];
  if (!port) return;
  const token = data.token;
  // Stay alive until the crypto worker's job arrives (or the wait runs out).
  awaitJob<DownloadJob>(event, port, (job) => {
    if (job.kind === 'zip' && !columnsFit(job.columns)) return false;
    const timer = setTimeout(() => {
      const stale = jobs.get(token);
      jobs.delete(token);
      if (stale) wipeJob(stale.job);
    }, JOB_TTL_MS);
    jobs.set(token, { job, timer });
    return true;
  });
});

sw.addEventListener('fetch', (event) => {
  if (previewFetch(event)) return;
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin || !url.pathname.startsWith(DOWNLOAD_PATH)) return;
  const token = url.pathname.slice(DOWNLOAD_PATH.length);
  const found = jobs.get(token);
  if (!found) {
    void tellPages(token, 'EXPIRED');
    event.respondWith(nothing());
    return;
  }
  jobs.delete(token);
  clearTimeout(found.timer);
  event.respondWith(serve(token, found.job));
});

/**
 * The page opens a download by navigating to it (Chromium does not route `<a download>` through a
 * service worker). A 204 answer to a navigation changes nothing, so a failure never replaces the
 * app with an error page; the page learns of it by message and shows docs/product.md "Messages" toast.
 */
function nothing(): Response {
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

function attachmentHeaders(name: string, length?: number): Headers {
  const headers = new Headers({
    'content-type': 'application/octet-stream',
    'content-disposition': contentDisposition(name),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // Never rendered; if it were, it could run nothing.
    'content-security-policy': "default-src 'none'; sandbox",
  });
  if (length !== undefined) headers.set('content-length', String(length));
  return headers;
}

async function tellPages(token: string, code: string): Promise<void> {
  await postToPages({ type: SW_ERROR_MESSAGE, token, code });
}

async function postToPages(message: object): Promise<void> {
  const pages = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(message);
}

/** The page's Cancel: a job not yet opened is dropped, a stream under way ends. */
function cancelDownload(token: string): void {
  const waiting = jobs.get(token);
  if (waiting) {
    jobs.delete(token);
    clearTimeout(waiting.timer);
    wipeJob(waiting.job);
  }
  streaming.get(token)?.();
}

/** Ciphertext of one file from the server, as a stream (session cookie rides along). */
async function fetchCipher(
  scope: BrowseScope,
  entry: Pick<DownloadEntry & { kind: 'file' }, 'id' | 'versionId'>,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const response = await bytes.fileData(checkedScope(scope), entry.id, {
    cache: 'no-store',
    ...(signal ? { signal } : {}),
    ...(entry.versionId ? { versionId: entry.versionId } : {}),
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw Object.assign(new Error(`data ${response.status}`), { code: 'FETCH_FAILED' });
  }
  return response.body;
}

function decrypted(
  entry: { key: Uint8Array; fileNonce: Uint8Array },
  cipher: ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  const stream = decryptBody(cipher, entry.key, entry.fileNonce);
  entry.key.fill(0); // the stream imported its own CryptoKey at start; wait for that below
  return stream;
}

/**
 * Reports progress, the end and any failure to the pages (the transfers panel row, a
 * docs/product.md "Messages" toast), and ends the stream when the page cancels it.
 */
function watched(token: string, stream: ReadableStream<Uint8Array>, total: number): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let sent = 0;
  let reported = 0;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        streaming.set(token, () => {
          streaming.delete(token);
          controller.error(new Error('cancelled'));
          void reader.cancel('cancelled').catch(() => {});
        });
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            streaming.delete(token);
            controller.close();
            void postToPages({ type: SW_PROGRESS_MESSAGE, token, sent, total, done: true });
            return;
          }
          sent += value.length;
          const now = Date.now();
          if (now - reported >= PROGRESS_MS) {
            reported = now;
            void postToPages({ type: SW_PROGRESS_MESSAGE, token, sent, total });
          }
          controller.enqueue(value);
        } catch (error) {
          if (!streaming.delete(token)) return; // cancelled: the page knows
          const code = (error as { code?: unknown })?.code;
          void tellPages(token, typeof code === 'string' ? code : 'FAILED');
          controller.error(error);
        }
      },
      cancel(reason) {
        // Stopped by the reader, i.e. in the browser's own downloads list: the row must say so.
        if (streaming.delete(token)) void postToPages({ type: SW_CANCELLED_MESSAGE, token });
        return reader.cancel(reason);
      },
    },
    // Decrypt ahead of the disk writer by a few MiB, so neither side idles waiting for the other.
    new CountQueuingStrategy({ highWaterMark: 16 }),
  );
}

async function serve(token: string, job: DownloadJob): Promise<Response> {
  // A Cancel while the server has not answered yet aborts the fetch (the stream's own canceller
  // takes over once it flows); the page already shows it cancelled, and nothing is saved.
  const stop = new AbortController();
  streaming.set(token, () => {
    streaming.delete(token);
    stop.abort();
  });
  // The key's copy and the server's answer, to let go of on any failure below.
  let key: Uint8Array | undefined;
  let cipher: ReadableStream<Uint8Array> | undefined;
  try {
    if (job.kind === 'file') {
      const entry = job.entries[0];
      if (entry?.kind !== 'file') throw Object.assign(new Error('empty job'), { code: 'BAD_JOB' });
      key = new Uint8Array(entry.key);
      wipeJob(job);
      cipher = await fetchCipher(job.scope, entry, stop.signal);
      // The decrypted length must be the recorded size (a zip checks each entry in zip.ts).
      const body = decryptBody(cipher, key, entry.fileNonce).pipeThrough(exactLength(entry.size));
      wipeLater(key);
      return new Response(watched(token, body, entry.size), { status: 200, headers: attachmentHeaders(job.name, entry.size) });
    }
    const zip = zipOf(job);
    return new Response(watched(token, zip.stream, zip.length), {
      status: 200,
      headers: attachmentHeaders(job.name, zip.length),
    });
  } catch (error) {
    wipeJob(job);
    key?.fill(0);
    if (cipher && !cipher.locked) void cipher.cancel().catch(() => {});
    if (!streaming.delete(token)) return nothing(); // cancelled meanwhile: the page knows
    const code = (error as { code?: unknown })?.code;
    void tellPages(token, typeof code === 'string' ? code : 'FAILED');
    return nothing();
  }
}

/** decryptBody imports the key in its start(); the raw copy is wiped once that has run. */
function wipeLater(key: Uint8Array): void {
  setTimeout(() => key.fill(0), 5_000);
}

/**
 * A folder as a zip (workers/zip.ts), produced on demand: files are decrypted only as the download
 * reads on, and fetched a few ahead (fetch-ahead.ts).
 */
function zipOf(job: DownloadJob & { kind: 'zip' }): { stream: ReadableStream<Uint8Array>; length: number } {
  const { columns } = job;
  const plan = planZip(columnsSource(columns));
  // Cancelling the download also aborts a fetch still waiting for the server.
  const stop = new AbortController();
  const cipherOf = fetchingAhead(columns.sizes.subarray(0, columns.count), (index) => {
    const answer = fetchCipher(job.scope, columnFile(columns, index), stop.signal);
    // Asked once: its id is not needed again (10,000 of them are half a MiB).
    columns.ids[index] = '';
    return answer;
  });
  const open = async (index: number) => decrypted(columnFile(columns, index), await cipherOf(index));
  const finish = () => {
    wipeJob(job);
    stop.abort();
  };
  return { stream: generatorStream(zipStream(plan, open), finish), length: plan.length };
}

/**
 * Pieces of a zip handed to the download at least this large: a small file is three pieces
 * (header, data, descriptor), and each piece crosses to the browser's download on its own.
 */
const ZIP_PIECE = 64 * 1024;

/** A stream that pulls from a generator, in pieces of at least ZIP_PIECE; `finish` runs however it ends. */
function generatorStream(generator: AsyncGenerator<Uint8Array>, finish: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const parts: Uint8Array[] = [];
          let size = 0;
          while (size < ZIP_PIECE) {
            const { done, value } = await generator.next();
            if (done) {
              if (size > 0) controller.enqueue(joined(parts));
              finish();
              controller.close();
              return;
            }
            parts.push(value);
            size += value.length;
          }
          controller.enqueue(joined(parts));
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      async cancel() {
        finish();
        await generator.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** One piece as it is; several copied into one. */
function joined(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : concat(...parts);
}
