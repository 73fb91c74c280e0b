// @vitest-environment node
/**
 * The download service worker (download.sw.ts) against a fake server holding a real ciphertext:
 * a file streams out decrypted, a failed fetch tells the pages, and a Cancel that comes while
 * the server has not answered yet aborts that fetch and saves nothing (the page already shows
 * the row cancelled, so no error goes to it either).
 */
import { unzipSync } from 'fflate';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../model/browse-scope.ts';
import {
  DOWNLOAD_PATH,
  SW_CANCEL_MESSAGE,
  SW_ERROR_MESSAGE,
  SW_MESSAGE,
  SW_PROGRESS_MESSAGE,
  type DownloadJob,
  jobTransfers,
} from '../model/transfers.ts';
import { ZipColumnsBuilder } from '../model/zip-columns.ts';
import { sealedSample } from '../test/sealed-sample.ts';
import type { ExtendableMessageEvent, FetchEvent } from './sw/scope.ts';

const ORIGIN = 'https://sealbox.test';
const SIZE = 700_000;

const listeners = new Map<string, (event: unknown) => void>();
/** What the service worker told the pages. */
let told: Array<{ type: string; code?: string }> = [];
let plain: Uint8Array;
let cipher: Uint8Array;
let key: Uint8Array;
let fileNonce: Uint8Array;
/** How the fake server answers `GET /api/file/data/item-1`. */
let server: (signal: AbortSignal | undefined) => Promise<Response>;
let fetchSignal: AbortSignal | undefined;

beforeAll(async () => {
  vi.stubGlobal('self', {
    location: new URL(`${ORIGIN}/`),
    skipWaiting: async () => {},
    clients: {
      claim: async () => {},
      matchAll: async () => [{ postMessage: (message: { type: string; code?: string }) => told.push(message) }],
    },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
  });
  await import('./download.sw.ts');
  ({ plain, key, fileNonce, cipher } = await sealedSample(SIZE));
});

beforeEach(() => {
  told = [];
  fetchSignal = undefined;
  server = async () => new Response(cipher.slice(), { status: 200 });
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    expect(input).toBe('/api/file/data/item-1');
    fetchSignal = init.signal ?? undefined;
    return server(fetchSignal);
  });
});

/** The page's side: a job for `token` handed over through a port, as the crypto worker does. */
async function register(
  token: string,
  entry: { fileNonce?: Uint8Array } = {},
  given?: DownloadJob,
  answered = 'ready',
): Promise<void> {
  const channel = new MessageChannel();
  const waits: Promise<unknown>[] = [];
  listeners.get('message')!({
    data: { type: SW_MESSAGE, token },
    ports: [channel.port2],
    waitUntil: (p: Promise<unknown>) => waits.push(p),
  } as unknown as ExtendableMessageEvent);
  const answer = new Promise<string>((resolve) => {
    channel.port1.onmessage = (message) => resolve((message.data as { type: string }).type);
  });
  const job: DownloadJob =
    given ??
    ({
      kind: 'file',
      name: 'report.bin',
      entries: [{ kind: 'file', path: 'report.bin', id: 'item-1', key: new Uint8Array(key), fileNonce, size: SIZE, ...entry }],
      scope: OWN_SCOPE,
    } as DownloadJob);
  // A zip's columns are transferred, as the crypto worker sends them.
  channel.port1.postMessage({ type: 'job', job }, jobTransfers(job));
  expect(await answer).toBe(answered);
  await Promise.all(waits);
  channel.port1.close();
}

/** The page opening /__download/{token}: the answer the browser would save. */
function open(token: string): Promise<Response> {
  let answered: Promise<Response> | undefined;
  listeners.get('fetch')!({
    request: { url: `${ORIGIN}${DOWNLOAD_PATH}${token}`, method: 'GET', headers: new Headers() },
    respondWith: (response: Response | Promise<Response>) => {
      answered = Promise.resolve(response);
    },
  } as unknown as FetchEvent);
  return answered!;
}

function cancel(token: string): void {
  listeners.get('message')!({ data: { type: SW_CANCEL_MESSAGE, token }, ports: [], waitUntil: () => {} });
}

describe('a file download', () => {
  it('streams the exact plaintext as an attachment and reports its end', async () => {
    const token = '0b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    await register(token);
    const response = await open(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('report.bin');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(plain);
    await vi.waitFor(() => expect(told.some((m) => m.type === SW_PROGRESS_MESSAGE && 'done' in m)).toBe(true));
  });

  it('a server refusal reaches the pages as an error, and nothing is saved', async () => {
    const token = '2b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    server = async () => new Response('gone', { status: 404 });
    await register(token);
    const response = await open(token);
    expect(response.status).toBe(204);
    await vi.waitFor(() => expect(told).toContainEqual(expect.objectContaining({ type: SW_ERROR_MESSAGE, token })));
  });

  it('a job that cannot be decrypted (a bad nonce) tells the pages and lets go of the server answer', async () => {
    const token = '4b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    let released = false;
    server = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull: () => new Promise(() => {}),
          cancel: () => {
            released = true;
          },
        }),
        { status: 200 },
      );
    await register(token, { fileNonce: new Uint8Array(3) });
    expect((await open(token)).status).toBe(204);
    await vi.waitFor(() => expect(told).toContainEqual(expect.objectContaining({ type: SW_ERROR_MESSAGE, token })));
    await vi.waitFor(() => expect(released).toBe(true));
  });

  it('a Cancel before the server answers aborts the fetch and saves nothing, silently', async () => {
    const token = '3b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    // The server holds its answer until the fetch is aborted (as a slow server would).
    server = (signal) =>
      new Promise<Response>((resolve, reject) => {
        if (!signal) return; // never answers: the test then fails on the abort below
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        void resolve;
      });
    await register(token);
    const answer = open(token);
    await vi.waitFor(() => expect(fetchSignal).toBeDefined());
    cancel(token);
    expect(fetchSignal?.aborted).toBe(true);
    const response = await answer;
    expect(response.status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(told.filter((m) => m.type === SW_ERROR_MESSAGE)).toEqual([]);
  });
});

describe('a zip download', () => {
  it('streams its entries from their columns, each file decrypted with its own key and nonce', async () => {
    const token = '5b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    const columns = new ZipColumnsBuilder();
    columns.addDir('Docs');
    columns.addFile('Docs/one.bin', 'item-1', key, fileNonce, SIZE);
    columns.addDir('Docs/Empty');
    columns.addFile('Docs/two.bin', 'item-1', key, fileNonce, SIZE);
    const built = columns.finish();
    await register(token, {}, { kind: 'zip', name: 'Docs.zip', columns: built, scope: OWN_SCOPE });
    // Transferred: the sender keeps nothing of the keys.
    expect(built.secrets.length).toBe(0);
    const response = await open(token);
    expect(response.status).toBe(200);
    const zip = new Uint8Array(await response.arrayBuffer());
    expect(zip.length).toBe(Number(response.headers.get('content-length')));
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(['Docs/', 'Docs/Empty/', 'Docs/one.bin', 'Docs/two.bin']);
    expect(files['Docs/one.bin']).toEqual(plain);
    expect(files['Docs/two.bin']).toEqual(plain);
  });

  it('a file whose key is wrong fails the zip and tells the pages', async () => {
    const token = '6b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    const columns = new ZipColumnsBuilder();
    columns.addFile('one.bin', 'item-1', key, fileNonce, SIZE);
    const wrong = new Uint8Array(key);
    wrong[0]! ^= 1;
    columns.addFile('two.bin', 'item-1', wrong, fileNonce, SIZE);
    await register(token, {}, { kind: 'zip', name: 'two.zip', columns: columns.finish(), scope: OWN_SCOPE });
    const response = await open(token);
    await expect(response.arrayBuffer()).rejects.toThrow();
    await vi.waitFor(() => expect(told).toContainEqual(expect.objectContaining({ type: SW_ERROR_MESSAGE, token })));
  });

  it('a zip job whose columns do not fit their count is refused, and its token answers nothing', async () => {
    const token = '7b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    const columns = new ZipColumnsBuilder();
    columns.addFile('one.bin', 'item-1', key, fileNonce, SIZE);
    const job: DownloadJob = { kind: 'zip', name: 'x.zip', columns: { ...columns.finish(), count: 2 }, scope: OWN_SCOPE };
    await register(token, {}, job, 'refused');
    expect((await open(token)).status).toBe(204);
    await vi.waitFor(() =>
      expect(told).toContainEqual(expect.objectContaining({ type: SW_ERROR_MESSAGE, token, code: 'EXPIRED' })),
    );
  });
});
