import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import type { FolderListing } from './api.ts';
import { filesKeys, folderQueryOptions } from './queries.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const api = vi.hoisted(() => ({ fetchFolder: vi.fn(), fetchFolderFirst: vi.fn() }));
vi.mock('./api.ts', overriding(api));

const item = (i: number) => ({ id: `i${i}`, name: `item ${i}`, decrypted: true }) as ItemView;
const listing = (count: number, partial?: FolderListing['partial']): FolderListing => ({
  folder: null,
  items: Array.from({ length: count }, (_, i) => item(i)),
  ancestors: [],
  users: {},
  ...(partial ? { partial } : {}),
});

/** A promise and its resolve/reject, for the whole folder's answer. */
function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Settled before the code under test asks for it (after a frame): not an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

const key = filesKeys.folder(OWN_SCOPE, 'f');
/** Past afterPaint (at most 100 ms) and the answer's handling. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 150));

afterEach(() => vi.resetAllMocks());

describe('folderQueryOptions: first items first', () => {
  test('answers the first items at once, then the whole folder replaces them', async () => {
    const client = new QueryClient();
    const whole = later<FolderListing>();
    api.fetchFolderFirst.mockResolvedValue({ first: listing(101, { token: 1, shown: 101 }), rest: () => whole.promise });
    const first = await client.fetchQuery(folderQueryOptions(OWN_SCOPE, 'f', { firstItems: true }));
    expect(first.items).toHaveLength(101);
    expect(first.partial).toEqual({ token: 1, shown: 101 });
    whole.resolve(listing(10_000));
    await flush();
    const held = client.getQueryData<FolderListing>(key)!;
    expect(held.items).toHaveLength(10_000);
    expect(held.partial).toBeUndefined();
  });

  test("the worker's progress on the whole folder reaches the first items' hint", async () => {
    const client = new QueryClient();
    const whole = later<FolderListing>();
    let report: ((opened: number, total: number) => void) | undefined;
    api.fetchFolderFirst.mockResolvedValue({
      first: listing(101, { token: 4, shown: 101 }),
      rest: (onProgress: (opened: number, total: number) => void) => {
        report = onProgress;
        return whole.promise;
      },
    });
    await client.fetchQuery(folderQueryOptions(OWN_SCOPE, 'f', { firstItems: true }));
    await flush();
    report?.(2048, 10_006);
    expect(client.getQueryData<FolderListing>(key)!.partial).toEqual({
      token: 4,
      shown: 101,
      opening: { opened: 2048, total: 10_006 },
    });
    whole.resolve(listing(10_006));
    await flush();
    // A late report after the whole folder is in changes nothing.
    report?.(4096, 10_006);
    expect(client.getQueryData<FolderListing>(key)!.partial).toBeUndefined();
  });

  test('a newer answer that came first is not overwritten by the late whole folder', async () => {
    const client = new QueryClient();
    const whole = later<FolderListing>();
    api.fetchFolderFirst.mockResolvedValue({ first: listing(101, { token: 2, shown: 101 }), rest: () => whole.promise });
    await client.fetchQuery(folderQueryOptions(OWN_SCOPE, 'f', { firstItems: true }));
    // A change elsewhere refetched the folder whole meanwhile (e.g. the trash's restore).
    client.setQueryData(key, listing(3));
    whole.resolve(listing(10_000));
    await flush();
    expect(client.getQueryData<FolderListing>(key)!.items).toHaveLength(3);
  });

  test('a folder held whole is asked for whole again (no flash of its first items on a refresh)', async () => {
    const client = new QueryClient();
    client.setQueryData(key, listing(10_000));
    api.fetchFolder.mockResolvedValue(listing(10_001));
    const again = await client.fetchQuery({ ...folderQueryOptions(OWN_SCOPE, 'f', { firstItems: true }), staleTime: 0 });
    expect(again.items).toHaveLength(10_001);
    expect(api.fetchFolderFirst).not.toHaveBeenCalled();
  });

  test('without firstItems (dialogs, restores) the folder is always asked for whole', async () => {
    const client = new QueryClient();
    api.fetchFolder.mockResolvedValue(listing(500));
    const got = await client.fetchQuery(folderQueryOptions(OWN_SCOPE, 'f'));
    expect(got.items).toHaveLength(500);
    expect(api.fetchFolderFirst).not.toHaveBeenCalled();
  });

  test('when the whole folder fails, the first items stay and say so', async () => {
    const client = new QueryClient();
    const whole = later<FolderListing>();
    api.fetchFolderFirst.mockResolvedValue({ first: listing(101, { token: 3, shown: 101 }), rest: () => whole.promise });
    await client.fetchQuery(folderQueryOptions(OWN_SCOPE, 'f', { firstItems: true }));
    whole.reject(new Error('offline'));
    await flush();
    const held = client.getQueryData<FolderListing>(key)!;
    expect(held.items).toHaveLength(101);
    expect(held.partial).toEqual({ token: 3, shown: 101, failed: true });
  });
});
