import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchShared } from './shared-api.ts';

const shared = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api.ts')>()),
  apiBytes: { shared },
}));
const call = vi.hoisted(() => vi.fn());
vi.mock('../../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

/** A page of the server's: the body the worker opens, and the next offset in its header. */
const page = (ids: string[], next: number | string | null) =>
  new Response(JSON.stringify({ files: ids.map((id) => ({ id })), users: ids.map((id) => ({ id: `u-${id}`, username: id })) }), {
    headers: next === null ? {} : { 'sealbox-next-offset': String(next) },
  });

afterEach(() => {
  vi.clearAllMocks();
});

describe('fetchShared', () => {
  it('follows the next offset the server names, page after page, until it names none', async () => {
    const pages = [page(['a', 'b'], 1000), page(['c'], 2000), page([], null)];
    shared.mockImplementation(async () => pages.shift());
    call.mockImplementation(async (_method: string, body: ArrayBuffer) => JSON.parse(new TextDecoder().decode(body)));
    const listing = await fetchShared();
    expect(shared.mock.calls).toEqual([
      [{ limit: 1000, offset: 0 }],
      [{ limit: 1000, offset: 1000 }],
      [{ limit: 1000, offset: 2000 }],
    ]);
    // A page with fewer items than asked (some not visible any more) is not the last one.
    expect(listing.items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(listing.users).toEqual({ 'u-a': 'a', 'u-b': 'b', 'u-c': 'c' });
  });

  it('stops at a next offset that does not move forward (a hostile or broken server)', async () => {
    shared.mockImplementation(async () => page(['a'], 0));
    call.mockImplementation(async (_method: string, body: ArrayBuffer) => JSON.parse(new TextDecoder().decode(body)));
    expect((await fetchShared()).items.map((item) => item.id)).toEqual(['a']);
    expect(shared).toHaveBeenCalledTimes(1);
  });
});
