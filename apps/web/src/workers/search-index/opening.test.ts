/**
 * The stored index's opening in the worker (methods.ts; docs/web-files.md "Search", names first):
 * the names record answers at once, the chunks wait for a pause in the searches when the index is
 * big, and nothing is left waiting for ever. IndexedDB and the AES-GCM are faked; the names
 * record's columns and both indexes are the real ones.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IndexEntry } from './seal.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const USER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const store = vi.hoisted(() => ({ entries: [] as IndexEntry[], stored: true }));
const openIndex = vi.hoisted(() => vi.fn());
const readIndex = vi.hoisted(() => vi.fn());

vi.mock('../key-rings.ts', overriding({ currentAccount: async () => ({ userId: USER, keys: { searchIndexKey: {} } }) }));
vi.mock(
  './store.ts',
  overriding({
    readNames: async () =>
      store.stored ? { meta: { treeVersion: 7, chunks: 1, names: store.entries.length }, names: {} } : undefined,
    readIndex,
    deleteIndex: async () => undefined,
  }),
);
vi.mock('./seal.ts', async (importOriginal) => {
  const real = (await importOriginal()) as typeof import('./seal.ts');
  return {
    ...real,
    openNames: async () => {
      const bytes = real.encodeNames(store.entries)!;
      return real.decodeNames(bytes.buffer, store.entries.length);
    },
    openIndex,
  };
});

const { searchIndexMethods, forgetSearchIndex } = await import('./methods.ts');
const { searchIndexOpen, searchIndexOpenWhole, searchIndexFind } = searchIndexMethods;

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const names = (count: number): IndexEntry[] =>
  Array.from({ length: count }, (_, n) => [
    uuid(n + 1),
    null,
    `entry ${n}${n === 42 ? ' budget' : ''}.txt`,
    false,
    'text/plain',
    n,
    n + 40,
    1,
    2,
    USER,
  ]);

/** Whether the chunks have been asked to open, after the timers due by now ran. */
async function chunksOpening(): Promise<boolean> {
  await vi.advanceTimersByTimeAsync(0);
  return openIndex.mock.calls.length > 0;
}

beforeEach(() => {
  // Timers and the clock only: the slices' yields (MessageChannel) stay real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  vi.stubGlobal('indexedDB', { databases: async () => [] });
  openIndex.mockImplementation(async () => store.entries);
  // The own section only: nothing is shared with this user.
  readIndex.mockImplementation(async (_user: string, section: string) =>
    section === 'own' ? { meta: { treeVersion: 7, chunks: 1, names: store.entries.length }, chunks: [] } : undefined,
  );
  store.stored = true;
});

afterEach(async () => {
  await forgetSearchIndex();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  openIndex.mockReset();
  readIndex.mockReset();
});

describe('opening a big stored index', () => {
  beforeEach(() => {
    store.entries = names(12_000);
  });

  it('answers from the names at once; the chunks wait for 300 ms without a search after the ask', async () => {
    const first = await searchIndexOpen();
    expect(first).toMatchObject({ state: 'ready', early: true, names: 12_000, treeVersion: 7 });
    // Asked again mid-opening (the loader warmed it, then the screen asks): the same early answer.
    expect(await searchIndexOpen()).toEqual(first);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await chunksOpening()).toBe(false);

    const whole = searchIndexOpenWhole();
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(250);
      const found = await searchIndexFind('budget', 10);
      expect(found).toMatchObject({ partial: true, total: 1 });
      expect(found.results.map((r) => r.name)).toEqual(['entry 42 budget.txt']);
    }
    expect(await chunksOpening()).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    expect(await chunksOpening()).toBe(true);
    const state = await whole;
    expect(state).toMatchObject({ state: 'ready', names: 12_000, treeVersion: 7 });
    expect(state.state === 'ready' && state.opened?.pause).toBeGreaterThanOrEqual(1300);
    // Whole now: sizes and dates, no longer partial.
    const found = await searchIndexFind('budget', 10);
    expect(found.partial).toBeUndefined();
    expect(found.results[0]).toMatchObject({ name: 'entry 42 budget.txt', size: 42 });
  });

  it('starts the chunks 2 s after the ask at the latest, however often searched', async () => {
    await searchIndexOpen();
    void searchIndexOpenWhole();
    for (let at = 0; at < 1900; at += 100) {
      await searchIndexFind('entry', 5);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(await chunksOpening()).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(await chunksOpening()).toBe(true);
  });

  it('what needs the whole index starts the chunks at once: a /shared search', async () => {
    await searchIndexOpen();
    const shared = searchIndexFind('budget', 10, 'shared').catch((error: unknown) => error);
    expect(await chunksOpening()).toBe(true);
    // Nothing is shared with this user: opened whole, the shared section is not there.
    expect(await shared).toMatchObject({ code: 'NO_INDEX' });
  });

  it('a logout while the chunks wait settles the opening as none, and never opens them', async () => {
    await searchIndexOpen();
    const whole = searchIndexOpenWhole();
    // The screen's ask is waiting on the opening now, within the pause.
    await vi.advanceTimersByTimeAsync(100);
    await forgetSearchIndex();
    expect(await whole).toEqual({ state: 'none' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(openIndex).not.toHaveBeenCalled();
  });

  it('a logout while the chunks open keeps nothing of them', async () => {
    let parsed: (entries: IndexEntry[]) => void = () => undefined;
    openIndex.mockImplementation(() => new Promise((resolve) => (parsed = resolve)));
    await searchIndexOpen();
    const whole = searchIndexOpenWhole();
    await vi.advanceTimersByTimeAsync(300);
    expect(await chunksOpening()).toBe(true);
    const logout = forgetSearchIndex();
    parsed(store.entries);
    await logout;
    expect(await whole).toEqual({ state: 'none' });
    await expect(searchIndexFind('budget', 10)).rejects.toMatchObject({ code: 'NO_INDEX' });
  });
});

describe('opening a small stored index', () => {
  it('opens the chunks at once, without waiting for an ask', async () => {
    store.entries = names(500);
    expect(await searchIndexOpen()).toMatchObject({ state: 'ready', early: true, names: 500 });
    expect(await chunksOpening()).toBe(true);
    expect(await searchIndexOpenWhole()).toMatchObject({ state: 'ready', names: 500, opened: { pause: 0 } });
  });
});

describe('no stored index (as after a sign-in)', () => {
  it("answers none from the names record's read alone, and again when asked again", async () => {
    store.stored = false;
    expect(await searchIndexOpen()).toEqual({ state: 'none' });
    expect(await searchIndexOpen()).toEqual({ state: 'none' });
    expect(await searchIndexOpenWhole()).toEqual({ state: 'none' });
    expect(readIndex).not.toHaveBeenCalled();
  });
});
