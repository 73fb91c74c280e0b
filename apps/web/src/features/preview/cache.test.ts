import { describe, expect, it } from 'vitest';
import { PreviewCache, type UrlApi } from './cache.ts';
import { canCycle, cycleIndex } from './cycle.ts';

function fakeUrls() {
  const live = new Set<string>();
  const revoked: string[] = [];
  let n = 0;
  const api: UrlApi = {
    create: () => {
      n += 1;
      const url = `blob:test/${n}`;
      live.add(url);
      return url;
    },
    revoke: (url) => {
      live.delete(url);
      revoked.push(url);
    },
  };
  return { api, live, revoked };
}

const blobOf = (size: number) => new Blob([new Uint8Array(size)]);

describe('PreviewCache', () => {
  it('loads a file once and reuses its object URL', async () => {
    const urls = fakeUrls();
    const cache = new PreviewCache(3, 1000, urls.api);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return blobOf(10);
    };
    const first = await cache.open('a', load).objectUrl();
    const again = await cache.open('a', load).objectUrl();
    await cache.open('a', load).blob();
    expect(again).toBe(first);
    expect(loads).toBe(1);
    expect(urls.live.size).toBe(1);
  });

  it('keeps at most the last N files and revokes the URLs of the evicted ones', async () => {
    const urls = fakeUrls();
    const cache = new PreviewCache(3, 1_000_000, urls.api);
    const made: string[] = [];
    for (let i = 0; i < 10; i += 1) made.push(await cache.open(`f${i}`, async () => blobOf(10)).objectUrl());
    expect(cache.count).toBe(3);
    expect(urls.live.size).toBe(3);
    expect([...urls.live]).toEqual(made.slice(-3));
    expect(urls.revoked).toEqual(made.slice(0, 7));
  });

  it('bounds the total size, but never drops the file in view', async () => {
    const urls = fakeUrls();
    const cache = new PreviewCache(10, 100, urls.api);
    await cache.open('a', async () => blobOf(60)).objectUrl();
    await cache.open('b', async () => blobOf(60)).objectUrl();
    expect(cache.count).toBe(1);
    expect(urls.live.size).toBe(1);
    // A single file larger than the bound still shows.
    const big = await cache.open('c', async () => blobOf(500)).objectUrl();
    expect(urls.live).toEqual(new Set([big]));
  });

  it('a recently used file stays while older ones go', async () => {
    const urls = fakeUrls();
    const cache = new PreviewCache(2, 1000, urls.api);
    const a = await cache.open('a', async () => blobOf(1)).objectUrl();
    await cache.open('b', async () => blobOf(1)).objectUrl();
    cache.open('a', async () => blobOf(1));
    await cache.open('c', async () => blobOf(1)).objectUrl();
    expect(urls.live.has(a)).toBe(true);
    expect(urls.live.size).toBe(2);
  });

  it('forgets a failed load so the next opening retries', async () => {
    const cache = new PreviewCache(3, 1000, fakeUrls().api);
    let fail = true;
    const load = async () => {
      if (fail) throw new Error('Error decrypting file.');
      return blobOf(3);
    };
    await expect(cache.open('a', load).blob()).rejects.toThrow('Error decrypting file.');
    fail = false;
    expect((await cache.open('a', load).blob()).size).toBe(3);
  });

  it('clear() revokes every URL', async () => {
    const urls = fakeUrls();
    const cache = new PreviewCache(3, 1000, urls.api);
    await cache.open('a', async () => blobOf(1)).objectUrl();
    await cache.open('b', async () => blobOf(1)).objectUrl();
    cache.clear();
    expect(urls.live.size).toBe(0);
    expect(cache.count).toBe(0);
  });

  it('a URL asked for after eviction is never made', async () => {
    const urls = fakeUrls();
    const cache = new PreviewCache(1, 1000, urls.api);
    let release: (blob: Blob) => void = () => undefined;
    const slow = cache.open('a', () => new Promise<Blob>((resolve) => (release = resolve)));
    const pending = slow.objectUrl();
    await cache.open('b', async () => blobOf(1)).objectUrl();
    release(blobOf(1));
    await expect(pending).rejects.toThrow();
    expect(urls.live.size).toBe(1);
  });
});

describe('cycling', () => {
  const items = [
    { id: 'f1', isDirectory: true },
    { id: 'a', isDirectory: false },
    { id: 'f2', isDirectory: true },
    { id: 'b', isDirectory: false },
    { id: 'c', isDirectory: false },
  ];

  it('skips folders and wraps around', () => {
    expect(cycleIndex(items, 1, 1)).toBe(3);
    expect(cycleIndex(items, 3, 1)).toBe(4);
    expect(cycleIndex(items, 4, 1)).toBe(1);
    expect(cycleIndex(items, 1, -1)).toBe(4);
    expect(cycleIndex(items, 3, -1)).toBe(1);
  });

  it('has nowhere to go with one file among folders', () => {
    expect(cycleIndex([items[0]!, items[1]!, items[2]!], 1, 1)).toBeUndefined();
  });

  it('shows the buttons only with an index, more than one item, outside search and with a handler', () => {
    const base = { index: 0, count: 2, fromSearch: false, canCycle: true };
    expect(canCycle(base)).toBe(true);
    expect(canCycle({ ...base, index: undefined })).toBe(false);
    expect(canCycle({ ...base, count: 1 })).toBe(false);
    expect(canCycle({ ...base, fromSearch: true })).toBe(false);
    expect(canCycle({ ...base, canCycle: false })).toBe(false);
  });
});
