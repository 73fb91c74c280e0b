import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SHARES, fetchShared, fetchSharedFirst } from './shared-api.ts';

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

/** The worker's stand-in: opens the body as JSON, and reports the page's grants as opened at once. */
const opensAll = async (_method: string, body: ArrayBuffer, port?: MessagePort) => {
  const parsed = JSON.parse(new TextDecoder().decode(body));
  port?.postMessage({ opened: parsed.files.length, total: parsed.files.length });
  // The report reaches the page before the answer (a worker posts it while still opening).
  await new Promise((resolve) => setTimeout(resolve, 5));
  return parsed;
};

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => `s${from + i}`);

describe('fetchSharedFirst', () => {
  it('a list the first page holds whole is the answer, with nothing more to ask', async () => {
    shared.mockImplementation(async () => page(ids(0, 10), null));
    call.mockImplementation(opensAll);
    const { first, rest } = await fetchSharedFirst();
    expect(shared.mock.calls).toEqual([[{ limit: FIRST_SHARES, offset: 0 }]]);
    expect(first.items).toHaveLength(10);
    expect(first.partial).toBeUndefined();
    expect(rest).toBeNull();
  });

  it('when the server says more follow, the first shares are marked and the rest asks for the whole list', async () => {
    shared.mockImplementationOnce(async () => page(ids(0, FIRST_SHARES), FIRST_SHARES));
    call.mockImplementation(opensAll);
    const { first, rest } = await fetchSharedFirst();
    expect(first.items).toHaveLength(FIRST_SHARES);
    expect(first.partial).toMatchObject({ shown: FIRST_SHARES, of: 'shares' });
    const pages = [page(ids(0, 1000), 1000), page(ids(1000, 500), null)];
    shared.mockImplementation(async () => pages.shift());
    const reports: Array<[number, number]> = [];
    const whole = await rest!((opened, total) => reports.push([opened, total]));
    expect(shared.mock.calls.slice(1)).toEqual([[{ limit: 1000, offset: 0 }], [{ limit: 1000, offset: 1000 }]]);
    expect(whole.items).toHaveLength(1500);
    expect(whole.partial).toBeUndefined();
    // Counted over the pages so far: the second page's grants come after the first's 1000.
    expect(reports).toEqual([
      [1000, 1000],
      [1500, 1500],
    ]);
  });

  it('a first page that is not a page of the list (the server refuses) is an error', async () => {
    shared.mockImplementation(async () => new Response('', { status: 403 }));
    await expect(fetchSharedFirst()).rejects.toMatchObject({ status: 403 });
  });
});
