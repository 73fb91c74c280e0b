import { describe, expect, test } from 'vitest';
import type { ItemView } from '../../model/items.ts';
import {
  IMAGE_MAX_BYTES,
  isRasterImage,
  scaledSize,
  thumbnailKind,
  videoTypeOf,
  wantsThumbnail,
} from '../../model/thumbnails.ts';
import { LruCache, ThumbnailLoader } from './thumbnail-cache.ts';

function item(over: Partial<ItemView>): ItemView {
  return {
    id: 'a',
    name: 'x',
    mimeType: null,
    extension: '',
    isDirectory: false,
    parentId: null,
    size: 1000,
    cipherSize: 1016,
    createdAt: 1,
    modifiedAt: 1,
    ownerId: 'u',
    uploaderId: 'u',
    editPermission: true,
    decrypted: true,
    ...over,
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('which items get a thumbnail', () => {
  test('raster images and mp4/webm/mov by mime or extension; never SVG', () => {
    expect(thumbnailKind(item({ mimeType: 'image/png' }))).toBe('image');
    expect(thumbnailKind(item({ mimeType: 'application/octet-stream', extension: 'jpeg' }))).toBe('image');
    for (const ext of ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp']) expect(thumbnailKind(item({ extension: ext }))).toBe('image');
    for (const ext of ['mp4', 'webm', 'mov']) expect(thumbnailKind(item({ extension: ext }))).toBe('video');
    expect(thumbnailKind(item({ mimeType: 'video/quicktime' }))).toBe('video');
    expect(thumbnailKind(item({ mimeType: 'image/svg+xml', extension: 'png' }))).toBeNull();
    expect(thumbnailKind(item({ mimeType: 'image/png', extension: 'svg' }))).toBeNull();
    expect(thumbnailKind(item({ extension: 'svg' }))).toBeNull();
    expect(thumbnailKind(item({ mimeType: 'text/plain', extension: 'txt' }))).toBeNull();
    expect(thumbnailKind(item({ isDirectory: true, extension: 'png' }))).toBeNull();
    expect(videoTypeOf(item({ extension: 'mov' }))).toBe('video/mp4');
    expect(videoTypeOf(item({ mimeType: 'video/webm', extension: '' }))).toBe('video/webm');
  });

  test('not for undecrypted, empty or oversized images', () => {
    expect(wantsThumbnail(item({ extension: 'png' }))).toBe(true);
    expect(wantsThumbnail(item({ extension: 'png', decrypted: false }))).toBe(false);
    expect(wantsThumbnail(item({ extension: 'png', size: 0 }))).toBe(false);
    expect(wantsThumbnail(item({ extension: 'png', size: IMAGE_MAX_BYTES + 1 }))).toBe(false);
    expect(wantsThumbnail(item({ extension: 'mp4', size: IMAGE_MAX_BYTES * 10 }))).toBe(true);
  });

  test('magic bytes: only PNG, JPEG, GIF, WebP and BMP reach the decoder', () => {
    const bytes = (...parts: Array<number[] | string>) =>
      new Uint8Array(
        parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)).concat(new Array(32).fill(0)),
      );
    expect(isRasterImage(bytes([0x89], 'PNG'))).toBe(true);
    expect(isRasterImage(bytes([0xff, 0xd8, 0xff]))).toBe(true);
    expect(isRasterImage(bytes('GIF89a'))).toBe(true);
    expect(isRasterImage(bytes('RIFF', [0, 0, 0, 0], 'WEBP'))).toBe(true);
    expect(isRasterImage(bytes('BM'))).toBe(true);
    expect(isRasterImage(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBe(false);
    expect(isRasterImage(bytes('<?xml version="1.0"?><svg'))).toBe(false);
    expect(isRasterImage(new Uint8Array())).toBe(false);
  });

  test('scaling keeps the aspect ratio and never enlarges', () => {
    expect(scaledSize(1600, 1200, 320)).toEqual({ width: 320, height: 240 });
    expect(scaledSize(100, 4000, 320)).toEqual({ width: 8, height: 320 });
    expect(scaledSize(50, 40, 320)).toEqual({ width: 50, height: 40 });
    expect(scaledSize(10_000, 1, 320)).toEqual({ width: 320, height: 1 });
  });
});

describe('LruCache', () => {
  test('evicts the least recently used past its capacity', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });
});

describe('ThumbnailLoader', () => {
  test('runs at most `concurrency` loads at once and caches results, null included', async () => {
    const loader = new ThumbnailLoader<string | null>(200, 3);
    const pending = Array.from({ length: 8 }, () => deferred<string | null>());
    let calls = 0;
    const results = pending.map((d, i) =>
      loader.request(`k${i}`, () => {
        calls++;
        return d.promise;
      }),
    );
    await tick();
    expect(loader.running).toBe(3);
    expect(loader.queued).toBe(5);
    for (const [i, d] of pending.entries()) d.resolve(i === 7 ? null : `t${i}`);
    expect(await Promise.all(results)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', null]);
    expect(loader.peak).toBe(3);
    expect(calls).toBe(8);
    // Cached: no second load.
    expect(await loader.request('k7', () => Promise.reject(new Error('not again')))).toBeNull();
    expect(loader.peek('k1')).toBe('t1');
    expect(calls).toBe(8);
  });

  test('the same key asked twice loads once', async () => {
    const loader = new ThumbnailLoader<string>(10, 3);
    let calls = 0;
    const load = async () => {
      calls++;
      return 'x';
    };
    const [a, b] = await Promise.all([loader.request('k', load), loader.request('k', load)]);
    expect([a, b, calls]).toEqual(['x', 'x', 1]);
  });

  test('a queued load nobody wants any more never runs; a failure is not cached', async () => {
    const loader = new ThumbnailLoader<string>(10, 1);
    const first = deferred<string>();
    const started: string[] = [];
    const blocker = loader.request('busy', () => {
      started.push('busy');
      return first.promise;
    });
    const controller = new AbortController();
    const dropped = loader.request(
      'gone',
      () => {
        started.push('gone');
        return Promise.resolve('never');
      },
      controller.signal,
    );
    const failing = loader.request('bad', () => {
      started.push('bad');
      return Promise.reject(new Error('offline'));
    });
    controller.abort();
    await expect(dropped).rejects.toThrow('no longer wanted');
    first.resolve('ok');
    expect(await blocker).toBe('ok');
    await expect(failing).rejects.toThrow('offline');
    expect(started).toEqual(['busy', 'bad']);
    expect(loader.peek('bad')).toBeUndefined();
    expect(await loader.request('bad', () => Promise.resolve('retried'))).toBe('retried');
  });

  test('a load one card still wants survives another card leaving', async () => {
    const loader = new ThumbnailLoader<string>(10, 1);
    const gate = deferred<string>();
    const block = loader.request('busy', () => gate.promise);
    const a = new AbortController();
    const first = loader.request('shared', () => Promise.resolve('pic'), a.signal);
    const second = loader.request('shared', () => Promise.resolve('other'));
    a.abort();
    await expect(first).rejects.toThrow();
    gate.resolve('done');
    await block;
    expect(await second).toBe('pic');
  });
});
