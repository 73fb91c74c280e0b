import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { OWN_SCOPE, SHARED_SCOPE } from '../../model/browse-scope.ts';
import { filesKeys, versionsKeys } from '../items/index.ts';
import { SESSIONS_QUERY_KEY, TOTP_STATUS_QUERY_KEY, UNFINISHED_UPLOADS_QUERY_KEY } from '../profile/index.ts';
import { sharingKeys } from '../sharing/index.ts';
import { COALESCE_MS, createInvalidator, invalidationsFor } from './invalidations.ts';

const listing = (ancestors: string[]) => ({ folder: null, items: [], users: [], ancestors: ancestors.map((id) => ({ id })) });

function seeded() {
  const client = new QueryClient();
  client.setQueryData(filesKeys.folder(OWN_SCOPE, null), listing([]));
  client.setQueryData(filesKeys.folder(OWN_SCOPE, 'a'), listing(['a']));
  client.setQueryData(filesKeys.folder(OWN_SCOPE, 'b'), listing(['a', 'b']));
  client.setQueryData(filesKeys.folder(OWN_SCOPE, 'other'), listing(['other']));
  client.setQueryData(filesKeys.tree(OWN_SCOPE), listing([]));
  client.setQueryData(PROFILE_QUERY_KEY, { id: 'me' });
  client.setQueryData(SESSIONS_QUERY_KEY, []);
  client.setQueryData(TOTP_STATUS_QUERY_KEY, 10);
  client.setQueryData([...UNFINISHED_UPLOADS_QUERY_KEY, 100], { uploads: [], users: {}, total: 0 });
  client.setQueryData(sharingKeys.shared, { items: [], users: {} });
  client.setQueryData(sharingKeys.sharedTree(['a', 'other']), []);
  client.setQueryData(sharingKeys.users('a'), { access: [], users: [] });
  client.setQueryData(sharingKeys.links('a'), []);
  client.setQueryData(sharingKeys.links('other'), []);
  return client;
}

function staleKeys(client: QueryClient): string[] {
  return client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => q.queryKey.join('/'))
    .sort();
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('invalidations', () => {
  const apply = (client: QueryClient, event: Parameters<typeof invalidationsFor>[0]) => {
    const invalidator = createInvalidator(client);
    invalidator.add(invalidationsFor(event));
    // Not runAllTimers: that would also run the cache's garbage collection of unobserved queries.
    vi.advanceTimersByTime(COALESCE_MS);
    return staleKeys(client);
  };

  test("a new item: its folder and the search trees (My Files' and /shared's), nothing else", () => {
    expect(apply(seeded(), { kind: 'item.created', itemId: 'x', parentId: 'a' })).toEqual([
      'files/folder/a/own',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
    expect(apply(seeded(), { kind: 'upload.completed', itemId: 'x', parentId: null })).toEqual([
      'files/folder/root/own',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
  });

  test("new content or a version restored or deleted: the file's folder and its open versions lists, no other file's", () => {
    const client = seeded();
    client.setQueryData(versionsKeys.list(OWN_SCOPE, 'x'), []);
    client.setQueryData(versionsKeys.list(SHARED_SCOPE, 'x'), []);
    client.setQueryData(versionsKeys.list(OWN_SCOPE, 'y'), []);
    expect(apply(client, { kind: 'item.versions', itemId: 'x', parentId: 'a' })).toEqual([
      'files/folder/a/own',
      'files/tree',
      'sharing/shared/tree/a/other',
      'versions/x/own',
      'versions/x/shared',
    ]);
  });

  test('a folder listed in My Files and in /shared (one key per browse scope): a change makes both stale', () => {
    const client = seeded();
    client.setQueryData(filesKeys.folder(SHARED_SCOPE, 'a'), listing(['a']));
    expect(apply(client, { kind: 'item.created', itemId: 'x', parentId: 'a' })).toEqual([
      'files/folder/a/own',
      'files/folder/a/shared',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
  });

  test('a renamed or moved folder: its parent, itself and every listing below it', () => {
    expect(apply(seeded(), { kind: 'item.renamed', itemId: 'a', parentId: null })).toEqual([
      'files/folder/a/own',
      'files/folder/b/own',
      'files/folder/root/own',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
    expect(apply(seeded(), { kind: 'item.moved', itemId: 'b', parentId: 'other' })).toEqual([
      'files/folder/b/own',
      'files/folder/other/own',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
  });

  test('quota, profile and sessions have their own entries', () => {
    // An upload started or ended: the space, and Profile's list of unfinished uploads.
    expect(apply(seeded(), { kind: 'quota.changed' })).toEqual(['profile', 'unfinished-uploads/100']);
    expect(apply(seeded(), { kind: 'profile.changed' })).toEqual(['profile', 'profile/totp']);
    expect(apply(seeded(), { kind: 'session.ended', sessionId: 's' })).toEqual(['sessions']);
  });

  test('a share made, switched or revoked: the shared list, who has access, and what lies below it', () => {
    for (const kind of ['share.created', 'share.changed', 'share.deleted'])
      expect(apply(seeded(), { kind, itemId: 'a' })).toEqual([
        'files/folder/a/own',
        'files/folder/b/own',
        'sharing/shared',
        'sharing/shared/tree/a/other',
        'sharing/users/a',
      ]);
  });

  test('a block made or lifted: the blocks, the shared list and its subtrees', () => {
    const client = seeded();
    client.setQueryData(sharingKeys.blocks, []);
    expect(apply(client, { kind: 'blocks.changed' })).toEqual([
      'sharing/blocks',
      'sharing/shared',
      'sharing/shared/tree/a/other',
    ]);
  });

  test("a link change: that item's links only", () => {
    for (const kind of ['link.created', 'link.changed', 'link.password', 'link.deleted'])
      expect(apply(seeded(), { kind, itemId: 'a' })).toEqual(['sharing/links/a']);
  });

  test('a link or share change also refreshes the listings that show the item (its shared mark)', () => {
    const holding = () => {
      const client = seeded();
      client.setQueryData(filesKeys.folder(OWN_SCOPE, null), { ...listing([]), items: [{ id: 'a' }] });
      return client;
    };
    for (const kind of ['link.created', 'link.deleted'])
      expect(apply(holding(), { kind, itemId: 'a' })).toEqual(['files/folder/root/own', 'sharing/links/a']);
    expect(apply(holding(), { kind: 'share.created', itemId: 'a' })).toContain('files/folder/root/own');
  });

  test('an unknown kind refreshes the files, not the account', () => {
    expect(apply(seeded(), { kind: 'share.added', itemId: 'x' })).toEqual([
      'files/folder/a/own',
      'files/folder/b/own',
      'files/folder/other/own',
      'files/folder/root/own',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
  });

  test('a burst is coalesced: the first change at once, the rest in one round per window', () => {
    const client = seeded();
    const spy = vi.spyOn(client, 'invalidateQueries');
    const invalidator = createInvalidator(client);
    invalidator.add(invalidationsFor({ kind: 'item.created', itemId: 'x0', parentId: 'a' }));
    vi.advanceTimersByTime(0);
    expect(spy).toHaveBeenCalledTimes(1);
    for (let i = 1; i <= 500; i++) invalidator.add(invalidationsFor({ kind: 'item.created', itemId: `x${i}`, parentId: 'a' }));
    vi.advanceTimersByTime(COALESCE_MS);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  test("a batch's one event: its folders, every listing below its items, the search trees; nothing else", () => {
    const itemIds = [...Array.from({ length: 5000 }, (_, i) => `moved${i}`), 'b'];
    expect(apply(seeded(), { kind: 'items.changed', itemIds, parentIds: [null, 'other'] })).toEqual([
      'files/folder/b/own',
      'files/folder/other/own',
      'files/folder/root/own',
      'files/tree',
      'sharing/shared/tree/a/other',
    ]);
  });

  test('a batch of 5,000 items refreshes each query it touches once, in one round', async () => {
    vi.useRealTimers();
    const client = seeded();
    const fetches = new Map<string, number>();
    // Observed queries are the ones a tab shows: invalidating them refetches them.
    const keys = [filesKeys.folder(OWN_SCOPE, 'a'), filesKeys.folder(OWN_SCOPE, 'b'), filesKeys.folder(OWN_SCOPE, 'other')];
    const observers = keys.map((queryKey) => {
      const observer = new QueryObserver(client, {
        queryKey,
        queryFn: () => {
          const name = queryKey.join('/');
          fetches.set(name, (fetches.get(name) ?? 0) + 1);
          return listing(name.includes('/b/') ? ['a', 'b'] : []);
        },
        staleTime: Number.POSITIVE_INFINITY,
      });
      return observer.subscribe(() => {});
    });
    const spy = vi.spyOn(client, 'invalidateQueries');
    const moved = Array.from({ length: 5000 }, (_, i) => `moved${i}`);
    const invalidator = createInvalidator(client);
    invalidator.add(invalidationsFor({ kind: 'items.changed', itemIds: moved, parentIds: ['a', 'other'] }));
    // The same items as one event each (an older server's way) join the same round.
    for (const itemId of moved) invalidator.add(invalidationsFor({ kind: 'item.moved', itemId, parentId: 'a' }));
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, COALESCE_MS * 2));
    expect(spy).toHaveBeenCalledTimes(1);
    // 'b' lies under 'a' but none of the items: its breadcrumbs are unchanged.
    expect(Object.fromEntries(fetches)).toEqual({ 'files/folder/a/own': 1, 'files/folder/other/own': 1 });
    for (const unsubscribe of observers) unsubscribe();
    invalidator.dispose();
  });

  test('held rounds wait, their invalidations kept, and go once released', () => {
    const client = seeded();
    const spy = vi.spyOn(client, 'invalidateQueries');
    let held = true;
    const invalidator = createInvalidator(client, Date.now, () => held);
    invalidator.add(invalidationsFor({ kind: 'items.changed', itemIds: ['x'], parentIds: ['a'] }));
    vi.advanceTimersByTime(COALESCE_MS * 10);
    expect(spy).not.toHaveBeenCalled();
    held = false;
    vi.advanceTimersByTime(COALESCE_MS);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(staleKeys(client)).toContain('files/folder/a/own');
  });

  test('a listing whose fetch began after the event is not asked again; one begun before is', async () => {
    const client = seeded();
    let clock = 1_000;
    let held = true;
    const invalidator = createInvalidator(
      client,
      () => clock,
      () => held,
    );
    // Fetched before the event (its answer may predate the change).
    clock = 1_001;
    await client.fetchQuery({ queryKey: filesKeys.folder(OWN_SCOPE, 'other'), queryFn: () => listing(['other']) });
    clock = 1_010;
    invalidator.add(invalidationsFor({ kind: 'items.changed', itemIds: ['x'], parentIds: ['a', 'other'] }));
    // A bulk change's own refresh when its calls are done: begun after the event came.
    clock = 1_020;
    await client.fetchQuery({ queryKey: filesKeys.folder(OWN_SCOPE, 'a'), queryFn: () => listing(['a']), staleTime: 0 });
    held = false;
    clock = 1_100;
    vi.advanceTimersByTime(COALESCE_MS * 2);
    const stale = staleKeys(client);
    expect(stale).not.toContain('files/folder/a/own');
    expect(stale).toContain('files/folder/other/own');
    invalidator.dispose();
  });

  test('catching up marks only what was fetched before the given time', () => {
    vi.setSystemTime(1_000);
    const client = seeded();
    vi.setSystemTime(2_000);
    client.setQueryData(filesKeys.folder(OWN_SCOPE, 'fresh'), listing([]));
    createInvalidator(client).catchUp(1_500);
    expect(staleKeys(client)).not.toContain('files/folder/fresh/own');
    expect(staleKeys(client)).toContain('files/folder/root/own');
  });

  test("catching up leaves a link's info to the link's own socket", () => {
    vi.setSystemTime(1_000);
    const client = seeded();
    client.setQueryData(sharingKeys.link('L1'), { status: 'open', info: {} });
    client.setQueryData(sharingKeys.links('a'), []);
    createInvalidator(client).catchUp(1_500);
    expect(staleKeys(client)).not.toContain('sharing/link/L1');
    // An item's list of links (the owner's view) is the user's socket's, as before.
    expect(staleKeys(client)).toContain('sharing/links/a');
  });
});
