import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DomainError } from '../../src/domain/errors.ts';
import type { BlobStore } from '../../src/ports/blob-store.ts';

export interface BlobStoreFixture {
  store: BlobStore;
  cleanup(): Promise<void>;
}

const MiB = 1024 * 1024;

/** Deterministic bytes, so a mismatch points at an offset instead of at randomness. */
export function patternBytes(length: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** Irregular chunk sizes catch code that assumes chunks align with anything. */
export function chunkedStream(bytes: Uint8Array, chunkSizes = [65_536, 1, 300_000, 7, 1_048_576]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const size = chunkSizes[turn++ % chunkSizes.length]!;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

/** Emits `before` bytes, then fails, like a client connection dropping mid-upload. */
export function failingStream(before: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(before);
        return;
      }
      controller.error(new Error('client went away'));
    },
  });
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function expectDomainError(promise: Promise<unknown>, code: string): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DomainError);
  expect((caught as DomainError).code).toBe(code as DomainError['code']);
}

export function blobStoreContract(name: string, makeStore: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    const run = crypto.randomUUID().replaceAll('-', '').slice(0, 8);
    let counter = 0;
    const freshKey = (label = 'blob') => `${label}-${run}-${++counter}-key`;

    beforeAll(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });

    test('round-trips exact bytes from a Uint8Array', async () => {
      const key = freshKey();
      const bytes = patternBytes(1000);
      expect(await store.put(key, bytes)).toEqual({ size: 1000 });
      expect(await readAll(await store.get(key))).toEqual(bytes);
      expect(await store.size(key)).toBe(1000);
      expect(await store.exists(key)).toBe(true);
    });

    test('round-trips an empty blob, from bytes and from a stream', async () => {
      const fromBytes = freshKey();
      const fromStream = freshKey();
      expect(await store.put(fromBytes, new Uint8Array(0))).toEqual({ size: 0 });
      expect(await store.put(fromStream, chunkedStream(new Uint8Array(0)))).toEqual({ size: 0 });
      for (const key of [fromBytes, fromStream]) {
        expect(await store.exists(key)).toBe(true);
        expect(await store.size(key)).toBe(0);
        expect((await readAll(await store.get(key))).length).toBe(0);
      }
    });

    test('streams more than 8 MiB in irregular chunks and returns the same bytes', async () => {
      const key = freshKey('large');
      const bytes = patternBytes(9 * MiB + 12_345, 11);
      expect(await store.put(key, chunkedStream(bytes))).toEqual({ size: bytes.length });
      expect(await store.size(key)).toBe(bytes.length);
      const back = await readAll(await store.get(key));
      expect(back.length).toBe(bytes.length);
      expect(Bun.hash(back)).toBe(Bun.hash(bytes));
      const tail = await readAll(await store.get(key, { start: bytes.length - 300_000, end: bytes.length - 1 }));
      expect(tail).toEqual(bytes.slice(bytes.length - 300_000));
    }, 60_000);

    test('serves inclusive byte ranges: first byte, last byte, middle, whole', async () => {
      const key = freshKey();
      const bytes = patternBytes(4096, 3);
      await store.put(key, bytes);
      const range = async (start: number, end: number) => readAll(await store.get(key, { start, end }));
      expect(await range(0, 0)).toEqual(bytes.slice(0, 1));
      expect(await range(4095, 4095)).toEqual(bytes.slice(4095));
      expect(await range(1000, 2999)).toEqual(bytes.slice(1000, 3000));
      expect(await range(0, 4095)).toEqual(bytes);
    });

    test('refuses ranges outside the blob', async () => {
      const key = freshKey();
      await store.put(key, patternBytes(10));
      await expectDomainError(store.get(key, { start: 5, end: 10 }), 'RANGE_NOT_SATISFIABLE');
      await expectDomainError(store.get(key, { start: 6, end: 5 }), 'RANGE_NOT_SATISFIABLE');
      await expectDomainError(store.get(key, { start: -1, end: 2 }), 'RANGE_NOT_SATISFIABLE');
      const empty = freshKey();
      await store.put(empty, new Uint8Array(0));
      await expectDomainError(store.get(empty, { start: 0, end: 0 }), 'RANGE_NOT_SATISFIABLE');
    });

    test('a missing key is NOT_FOUND for get and size, false for exists', async () => {
      const key = freshKey('missing');
      await expectDomainError(store.get(key), 'NOT_FOUND');
      await expectDomainError(store.get(key, { start: 0, end: 0 }), 'NOT_FOUND');
      await expectDomainError(store.size(key), 'NOT_FOUND');
      expect(await store.exists(key)).toBe(false);
    });

    test('put replaces existing content', async () => {
      const key = freshKey();
      await store.put(key, patternBytes(100, 1));
      await store.put(key, patternBytes(50, 2));
      expect(await readAll(await store.get(key))).toEqual(patternBytes(50, 2));
      expect(await store.size(key)).toBe(50);
    });

    test('a stream that fails midway leaves no blob and keeps earlier content', async () => {
      const fresh = freshKey('failed');
      await expect(store.put(fresh, failingStream(patternBytes(100_000)))).rejects.toThrow('client went away');
      expect(await store.exists(fresh)).toBe(false);

      const existing = freshKey();
      await store.put(existing, patternBytes(64, 5));
      await expect(store.put(existing, failingStream(patternBytes(100_000)))).rejects.toThrow('client went away');
      expect(await readAll(await store.get(existing))).toEqual(patternBytes(64, 5));
    });

    test('a stream that fails after several MiB (past a multipart part) leaves no blob', async () => {
      const key = freshKey('failed-large');
      await expect(store.put(key, failingStream(patternBytes(9 * MiB)))).rejects.toThrow('client went away');
      await Bun.sleep(200);
      expect(await store.exists(key)).toBe(false);
    }, 30_000);

    test('delete removes and is idempotent', async () => {
      const key = freshKey();
      await store.put(key, patternBytes(10));
      await store.delete(key);
      expect(await store.exists(key)).toBe(false);
      await expectDomainError(store.get(key), 'NOT_FOUND');
      await store.delete(key);
      await store.delete(freshKey('never'));
    });

    test('list yields stored keys, filtered by prefix', async () => {
      const prefix = `list${run}`;
      const keys = [`${prefix}-a-0001`, `${prefix}-b-0002`, `${prefix}-b-0003`];
      for (const key of keys) await store.put(key, patternBytes(3));
      const listed = async (p?: string) => {
        const found: string[] = [];
        for await (const key of store.list(p)) found.push(key);
        return found.sort();
      };
      expect(await listed(prefix)).toEqual(keys);
      expect(await listed(`${prefix}-b`)).toEqual(keys.slice(1));
      expect(await listed(`${prefix}-zzz`)).toEqual([]);
      const all = await listed();
      for (const key of keys) expect(all).toContain(key);
      await store.delete(keys[0]!);
      expect(await listed(prefix)).toEqual(keys.slice(1));
    });

    test.each(['', 'short', '../../etc/passwd', 'a/b/cdefghij', 'dots..dots', '.hidden-key', 'with space 123', 'x'.repeat(129)])(
      'refuses the unsafe key %p',
      async (key) => {
        await expectDomainError(store.put(key, new Uint8Array(1)), 'VALIDATION');
        await expectDomainError(store.get(key), 'VALIDATION');
        await expectDomainError(store.exists(key), 'VALIDATION');
        await expectDomainError(store.delete(key), 'VALIDATION');
      },
    );

    test('health resolves', async () => {
      await store.health();
    });
  });
}
