import { describe, expect, test } from 'bun:test';
import type { Listing } from '../domain/files/listing.ts';
import type { ItemView } from '../domain/files/view.ts';
import { RESYNC_EVENT_KIND } from '../ports/event-bus.ts';
import { createListingCache, MAX_CACHED_CHARS, MIN_CACHED_CHARS } from './listing-cache.ts';

const me = { kind: 'user' as const, userId: 'u1' };
const big = 'x'.repeat(MIN_CACHED_CHARS);
const listing = (ancestors: string[] = []): Listing => ({
  root: null,
  files: [],
  users: [{ id: 'u1', username: 'me', avatarExtension: null }],
  ancestors: ancestors.map((id) => ({ id }) as ItemView),
});
const folder = { id: 'F', depth: 1, includeAncestors: true };

function cached(ancestors: string[] = ['A']) {
  const cache = createListingCache();
  const key = cache.keyOf(me, folder)!;
  cache.put(key, big, listing(ancestors), me, folder, cache.epoch());
  return { cache, key };
}

describe('listing cache', () => {
  test('keeps large depth-1 answers only, and folders only with their ancestors', () => {
    const cache = createListingCache();
    expect(cache.keyOf(me, { id: 'F', depth: 2, includeAncestors: true })).toBeUndefined();
    expect(cache.keyOf(me, { id: 'F' })).toBeUndefined();
    expect(cache.keyOf(me, {})).toBeString();
    const key = cache.keyOf(me, folder)!;
    cache.put(key, 'small', listing(), me, folder, cache.epoch());
    expect(cache.get(key)).toBeUndefined();
    expect(cached().cache.get(key)).toBe(big);
    expect(cache.keyOf({ kind: 'user', userId: 'u2' }, folder)).not.toBe(key);
  });

  test('an event about the folder, an item in it, an ancestor or a person shown drops the answer', () => {
    const events = [
      { kind: 'item.created', itemId: 'new', parentId: 'F', userIds: ['u1'] },
      { kind: 'item.renamed', itemId: 'F', parentId: 'A', userIds: ['u1'] },
      { kind: 'item.moved', itemId: 'A', parentId: null, userIds: ['u1'] },
      { kind: 'item.deleted', itemId: 'A', parentId: null, userIds: ['u1'] },
      { kind: 'profile.changed', userIds: ['u1'] },
      { kind: RESYNC_EVENT_KIND, userIds: [] },
    ];
    for (const event of events) {
      const { cache, key } = cached();
      cache.apply(event);
      expect([event.kind, cache.get(key)]).toEqual([event.kind, undefined]);
    }
  });

  test('events elsewhere leave it alone; the top level follows its owner’s top-level events', () => {
    const { cache, key } = cached();
    cache.apply({ kind: 'item.created', itemId: 'x', parentId: 'other', userIds: ['u1'] });
    cache.apply({ kind: 'quota.changed', userIds: ['u1'] });
    cache.apply({ kind: 'profile.changed', userIds: ['u2'] });
    expect(cache.get(key)).toBe(big);

    const top = cache.keyOf(me, {})!;
    cache.put(top, big, listing(), me, {}, cache.epoch());
    cache.apply({ kind: 'item.created', itemId: 'y', parentId: null, userIds: ['u2'] });
    expect(cache.get(top)).toBe(big);
    cache.apply({ kind: 'item.created', itemId: 'z', parentId: null, userIds: ['u1'] });
    expect(cache.get(top)).toBeUndefined();
  });

  test('an answer made while a relevant event arrived is not kept; an unrelated one is', () => {
    const cache = createListingCache();
    const key = cache.keyOf(me, folder)!;
    let started = cache.epoch();
    cache.apply({ kind: 'item.created', itemId: 'x', parentId: 'elsewhere', userIds: ['u1'] });
    cache.put(key, big, listing(['A']), me, folder, started);
    expect(cache.get(key)).toBe(big);

    cache.apply({ kind: RESYNC_EVENT_KIND, userIds: [] });
    started = cache.epoch();
    cache.apply({ kind: 'item.renamed', itemId: 'A', parentId: null, userIds: ['u1'] });
    cache.put(key, big, listing(['A']), me, folder, started);
    expect(cache.get(key)).toBeUndefined();

    // Too many events meanwhile to judge: not kept.
    started = cache.epoch();
    for (let i = 0; i < 1100; i++) cache.apply({ kind: 'quota.changed', userIds: ['u9'] });
    cache.put(key, big, listing(['A']), me, folder, started);
    expect(cache.get(key)).toBeUndefined();
  });

  test('memory stays bounded: the least recently used go first', () => {
    const cache = createListingCache();
    const answer = 'y'.repeat(MAX_CACHED_CHARS / 4);
    const keys = ['F1', 'F2', 'F3', 'F4', 'F5'].map((id) => {
      const options = { id, depth: 1, includeAncestors: true };
      const key = cache.keyOf(me, options)!;
      cache.put(key, answer, listing(), me, options, cache.epoch());
      if (id === 'F2') cache.get(cache.keyOf(me, { id: 'F1', depth: 1, includeAncestors: true })!);
      return key;
    });
    expect(cache.size()).toBe(4);
    expect(cache.get(keys[1]!)).toBeUndefined();
    expect(cache.get(keys[0]!)).toBe(answer);
  });
});
