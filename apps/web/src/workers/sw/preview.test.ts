// @vitest-environment node
/**
 * The service worker's preview streams (sw/preview.ts) against a fake server holding a real
 * ciphertext: exact plaintext for any Range, only the chunks covering it fetched, a flipped byte
 * failing only the ranges that need its chunk, and the refusals (navigation, script, unknown or
 * closed token, types that are not media).
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import {
  PREVIEW_PATH,
  PREVIEW_TTL_MS,
  SW_PREVIEW_CLOSE,
  SW_PREVIEW_KEEP,
  SW_PREVIEW_MESSAGE,
  type PreviewJob,
} from '../../model/transfers.ts';
import { sealedSample } from '../../test/sealed-sample.ts';
import type { ExtendableMessageEvent, FetchEvent } from './scope.ts';

const ORIGIN = 'https://sealbox.test';
const CHUNK = 262_144;
const CIPHER_CHUNK = CHUNK + 16;
const SIZE = 5 * CHUNK + 12_345;

type PreviewModule = typeof import('./preview.ts');
let preview: PreviewModule;
let plain: Uint8Array;
let cipher: Uint8Array;
let key: Uint8Array;
let fileNonce: Uint8Array;
/** Ranges [start, end) the fake server was asked for. */
let asked: Array<{ start: number; end: number }> = [];
/** Byte of the ciphertext to flip in answers (-1: none). */
let flip = -1;
/** The data URL the fake server expects. */
let dataPath = '/api/file/data/item-1';

beforeAll(async () => {
  vi.stubGlobal('self', {
    location: new URL(`${ORIGIN}/`),
    clients: { claim: async () => {}, matchAll: async () => [] },
    addEventListener: () => {},
  });
  preview = await import('./preview.ts');
  ({ plain, key, fileNonce, cipher } = await sealedSample(SIZE));
});

beforeEach(() => {
  asked = [];
  flip = -1;
  dataPath = '/api/file/data/item-1';
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    expect(input).toBe(dataPath);
    const header = new Headers(init.headers).get('range') ?? '';
    const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(header) ?? [];
    const start = Number(a);
    const end = Number(b) + 1;
    asked.push({ start, end });
    const body = cipher.slice(start, end);
    if (flip >= start && flip < end) body[flip - start]! ^= 1;
    return new Response(body, { status: 206 });
  });
});

async function register(token: string, job: Partial<PreviewJob> = {}): Promise<string> {
  const channel = new MessageChannel();
  const waits: Promise<unknown>[] = [];
  const event = {
    data: { type: SW_PREVIEW_MESSAGE, token },
    ports: [channel.port2],
    waitUntil: (p: Promise<unknown>) => waits.push(p),
  } as unknown as ExtendableMessageEvent;
  expect(preview.previewMessage(event)).toBe(true);
  const answer = new Promise<string>((resolve) => {
    channel.port1.onmessage = (message) => resolve((message.data as { type: string }).type);
  });
  const sent = new Uint8Array(key);
  channel.port1.postMessage({
    type: 'job',
    job: { itemId: 'item-1', key: sent, fileNonce, size: SIZE, mime: 'video/mp4', scope: OWN_SCOPE, ...job },
  });
  const type = await answer;
  await Promise.all(waits);
  channel.port1.close();
  return type;
}

function request(
  token: string,
  { range, destination = 'video', mode = 'no-cors' }: { range?: string; destination?: string; mode?: string } = {},
) {
  let answered: Promise<Response> | undefined;
  const event = {
    request: {
      url: `${ORIGIN}${PREVIEW_PATH}${token}`,
      method: 'GET',
      mode,
      destination,
      headers: new Headers(range ? { range } : {}),
    },
    respondWith: (response: Response | Promise<Response>) => {
      answered = Promise.resolve(response);
    },
  } as unknown as FetchEvent;
  expect(preview.previewFetch(event)).toBe(true);
  return answered!;
}

const TOKEN = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';

describe('parseRange', () => {
  it('reads single byte ranges, open and suffix ones, and refuses what cannot be served', () => {
    expect(preview.parseRange(null, 100)).toBeNull();
    expect(preview.parseRange('bytes=0-', 100)).toEqual({ from: 0, to: 100 });
    expect(preview.parseRange('bytes=10-19', 100)).toEqual({ from: 10, to: 20 });
    expect(preview.parseRange('bytes=90-500', 100)).toEqual({ from: 90, to: 100 });
    expect(preview.parseRange('bytes=-10', 100)).toEqual({ from: 90, to: 100 });
    expect(preview.parseRange('bytes=-500', 100)).toEqual({ from: 0, to: 100 });
    expect(preview.parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(preview.parseRange('bytes=20-10', 100)).toBe('unsatisfiable');
    expect(preview.parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    // Not one plain range: the whole body instead (as a server may).
    expect(preview.parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(preview.parseRange('items=0-1', 100)).toBeNull();
  });
});

describe('a preview stream', () => {
  it('answers any range with the exact plaintext, fetching only the chunks that hold it', async () => {
    expect(await register(TOKEN)).toBe('ready');
    const cases: Array<[number, number]> = [
      [0, SIZE - 1],
      [0, 0],
      [CHUNK - 1, CHUNK],
      [3 * CHUNK + 5, 3 * CHUNK + 100],
      [2 * CHUNK, SIZE - 1],
      [SIZE - 10, SIZE - 1],
    ];
    for (const [from, last] of cases) {
      asked = [];
      const response = await request(TOKEN, { range: `bytes=${from}-${last}` });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes ${from}-${last}/${SIZE}`);
      expect(response.headers.get('content-length')).toBe(String(last - from + 1));
      expect(response.headers.get('content-type')).toBe('video/mp4');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain('sandbox');
      const body = new Uint8Array(await response.arrayBuffer());
      expect(body).toEqual(plain.slice(from, last + 1));
      const first = Math.floor(from / CHUNK);
      const lastChunk = Math.floor(last / CHUNK);
      // Whole chunks, from the first needed to the last needed, each asked for once.
      expect(asked[0]!.start).toBe(first * CIPHER_CHUNK);
      expect(Math.max(...asked.map((r) => r.end))).toBe(Math.min((lastChunk + 1) * CIPHER_CHUNK, cipher.length));
      const total = asked.reduce((sum, r) => sum + r.end - r.start, 0);
      expect(total).toBe(Math.min((lastChunk + 1) * CIPHER_CHUNK, cipher.length) - first * CIPHER_CHUNK);
    }
    // Without a Range: 200 and the whole file.
    const whole = await request(TOKEN);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-range')).toBeNull();
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(plain);
    // Past the end: 416.
    const beyond = await request(TOKEN, { range: `bytes=${SIZE}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${SIZE}`);
  });

  it('reads only as far as the reader pulls: a window ahead, not the rest of the file', async () => {
    expect(await register(TOKEN)).toBe('ready');
    const response = await request(TOKEN, { range: 'bytes=0-' });
    const reader = response.body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fetched = asked.reduce((sum, r) => sum + r.end - r.start, 0);
    expect(fetched).toBeLessThanOrEqual(2 * preview.WINDOW_CHUNKS * CIPHER_CHUNK);
    await reader.cancel();
  });

  it("streams an earlier version from that version's own data URL, and refuses a version id that is not a string", async () => {
    dataPath = '/api/file/item-1/versions/version-7/data';
    expect(await register(TOKEN, { versionId: 'version-7' })).toBe('ready');
    const response = await request(TOKEN, { range: `bytes=${CHUNK}-${CHUNK + 99}` });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(plain.slice(CHUNK, CHUNK + 100));
    expect(asked.length).toBeGreaterThan(0);
    const other = '3b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    expect(await register(other, { versionId: 7 as unknown as string })).toBe('refused');
  });

  it('errors a range that needs a tampered chunk, and serves ranges that do not', async () => {
    expect(await register(TOKEN)).toBe('ready');
    flip = 2 * CIPHER_CHUNK + 77;
    const bad = await request(TOKEN, { range: `bytes=${2 * CHUNK}-${2 * CHUNK + 10}` });
    expect(bad.status).toBe(206);
    await expect(bad.arrayBuffer()).rejects.toThrow();
    const good = await request(TOKEN, { range: `bytes=${4 * CHUNK}-${4 * CHUNK + 10}` });
    expect(new Uint8Array(await good.arrayBuffer())).toEqual(plain.slice(4 * CHUNK, 4 * CHUNK + 11));
  });

  it('refuses navigations and script, unknown and closed tokens, and jobs that are not media or name no scope', async () => {
    expect(await register(TOKEN)).toBe('ready');
    expect((await request(TOKEN, { mode: 'navigate', destination: 'document' })).status).toBe(403);
    expect((await request(TOKEN, { destination: '' })).status).toBe(403);
    expect((await request(TOKEN, { destination: 'iframe', mode: 'navigate' })).status).toBe(403);
    expect((await request('0b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b')).status).toBe(404);
    expect((await request(TOKEN, { destination: 'audio', range: 'bytes=0-9' })).status).toBe(206);

    const close = { data: { type: SW_PREVIEW_CLOSE, token: TOKEN }, ports: [], waitUntil: () => {} };
    expect(preview.previewMessage(close as unknown as ExtendableMessageEvent)).toBe(true);
    expect((await request(TOKEN)).status).toBe(404);

    const other = '2b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    expect(await register(other, { mime: 'text/html' })).toBe('refused');
    expect(await register(other, { mime: 'image/svg+xml' })).toBe('refused');
    // A job that names no browse scope (which key ring, whose calls) is refused, not made as the user's own.
    expect(await register(other, { scope: undefined as never })).toBe('refused');
    expect(await register(other, { scope: { kind: 'link' } as never })).toBe('refused');
    expect((await request(other)).status).toBe(404);
  });

  it('drops a job left idle for PREVIEW_TTL_MS, and keeps one its page still shows', async () => {
    const kept = '3b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    const idle = '4b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    // Faked before the jobs arrive, so their expiry timers are fake too.
    vi.useFakeTimers();
    try {
      expect(await register(kept)).toBe('ready');
      expect(await register(idle)).toBe('ready');
      const keep = { data: { type: SW_PREVIEW_KEEP, tokens: [kept] }, ports: [], waitUntil: () => {} };
      for (let elapsed = 0; elapsed < 2 * PREVIEW_TTL_MS; elapsed += PREVIEW_TTL_MS / 3) {
        vi.advanceTimersByTime(PREVIEW_TTL_MS / 3);
        preview.previewMessage(keep as unknown as ExtendableMessageEvent);
      }
    } finally {
      vi.useRealTimers();
    }
    expect((await request(idle)).status).toBe(404);
    const still = await request(kept, { range: 'bytes=0-9' });
    expect(still.status).toBe(206);
    expect(new Uint8Array(await still.arrayBuffer())).toEqual(plain.slice(0, 10));
  });
});
