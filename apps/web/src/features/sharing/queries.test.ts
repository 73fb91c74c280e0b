import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ItemView } from '../../model/items.ts';
import type { FirstPart } from '../items/index.ts';
import { sharedQueryOptions, sharingKeys } from './queries.ts';
import type { SharedListing } from './shared-with-me/shared-api.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const api = vi.hoisted(() => ({ fetchShared: vi.fn(), fetchSharedFirst: vi.fn() }));
vi.mock('./shared-with-me/shared-api.ts', overriding(api));

const list = (count: number, partial?: FirstPart): SharedListing => ({
  items: Array.from({ length: count }, (_, i) => ({ id: `s${i}`, name: `share ${i}`, decrypted: true }) as ItemView),
  users: {},
  ...(partial ? { partial } : {}),
});
/** Past the first part's paint (at most 100 ms) and the whole list's handling. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 150));

afterEach(() => vi.resetAllMocks());

describe('sharedQueryOptions: the first shares first (docs/web-files.md "Opening a large folder")', () => {
  test('answers the first shares at once; their progress reaches the hint; then the whole list replaces them', async () => {
    const client = new QueryClient();
    let finish!: (whole: SharedListing) => void;
    let report!: (opened: number, total: number) => void;
    api.fetchSharedFirst.mockResolvedValue({
      first: list(21, { token: 7, shown: 21, of: 'shares' }),
      rest: (onProgress: (opened: number, total: number) => void) => {
        report = onProgress;
        return new Promise<SharedListing>((resolve) => {
          finish = resolve;
        });
      },
    });
    const first = await client.fetchQuery(sharedQueryOptions({ firstItems: true }));
    expect(first.items).toHaveLength(21);
    await flush();
    report(500, 1000);
    expect(client.getQueryData<SharedListing>(sharingKeys.shared)!.partial).toEqual({
      token: 7,
      shown: 21,
      of: 'shares',
      opening: { opened: 500, total: 1000 },
    });
    finish(list(1000));
    await flush();
    const held = client.getQueryData<SharedListing>(sharingKeys.shared)!;
    expect(held.items).toHaveLength(1000);
    expect(held.partial).toBeUndefined();
  });

  test('a list held whole is asked for whole again, and so is every list without firstItems', async () => {
    const client = new QueryClient();
    client.setQueryData(sharingKeys.shared, list(1000));
    api.fetchShared.mockResolvedValue(list(1001));
    const again = await client.fetchQuery({ ...sharedQueryOptions({ firstItems: true }), staleTime: 0 });
    expect(again.items).toHaveLength(1001);
    const plain = await new QueryClient().fetchQuery(sharedQueryOptions());
    expect(plain.items).toHaveLength(1001);
    expect(api.fetchSharedFirst).not.toHaveBeenCalled();
  });
});
