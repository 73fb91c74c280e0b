import { describe, expect, test } from 'bun:test';
import type { Listing, ListOptions, Relisted } from '../../domain/files/listing.ts';
import type { ItemView } from '../../domain/files/view.ts';
import { RESYNC_EVENT_KIND, type SealboxEvent } from '../../ports/event-bus.ts';
import { createListingCache, MAX_CACHED_CHARS, MAX_PENDING } from './listing-cache.ts';

const me = { kind: 'user' as const, userId: 'u1' };
const folder: ListOptions = { id: 'F', depth: 1, limit: 2147483648, includeAncestors: true };
const top: ListOptions = { depth: 1, limit: 2147483648 };

function view(id: string, parentId: string | null, createdAt: number, name = 'name', person = 'u1'): ItemView {
  return {
    id,
    parentId,
    isDirectory: true,
    // About 700 characters per item, so a few hundred make an answer worth keeping.
    encryptedFileName: name.padEnd(600, '='),
    nameNonce: 'nonce',
    encryptedMimeType: null,
    mimeTypeNonce: null,
    encryptedKey: 'key',
    keyNonce: 'nonce',
    fileNonce: null,
    size: 0,
    createdAt,
    modifiedAt: createdAt,
    ownerId: person,
    uploaderId: person,
    editPermission: true,
  } as ItemView;
}

/** A stand-in for the database: what a fresh listing says, and what re-reading items says. */
function world(count = 500) {
  const items = new Map<string, ItemView>();
  const ancestor = view('A', null, 1);
  const root = view('F', 'A', 2);
  // Equal creation times on purpose: the id orders them then.
  for (let i = 0; i < count; i++)
    items.set(`c${String(i).padStart(4, '0')}`, view(`c${String(i).padStart(4, '0')}`, 'F', 10 + Math.floor(i / 3)));
  const order = (a: ItemView, b: ItemView) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
  const inLevel = (item: ItemView, options: ListOptions) =>
    options.id === undefined ? item.parentId === null : item.parentId === options.id;
  const reads: string[][] = [];
  return {
    items,
    reads,
    fresh(options: ListOptions): Listing {
      const files = [...items.values()].filter((item) => inLevel(item, options)).sort(order);
      const people = new Set([...(options.id ? [root, ancestor] : []), ...files].map((item) => item.ownerId));
      const listing: Listing = {
        root: options.id ? { ...root, children: files.map((f) => f.id) } : null,
        files,
        users: [...people].map((id) => ({ id, username: id, avatarExtension: null })),
      };
      if (options.includeAncestors) listing.ancestors = options.id ? [ancestor] : [];
      return listing;
    },
    relist(options: ListOptions) {
      return async (ids: readonly string[]): Promise<Relisted> => {
        reads.push([...ids]);
        await Bun.sleep(1);
        const now = new Map(ids.map((id) => [id, items.has(id) && inLevel(items.get(id)!, options) ? items.get(id)! : null]));
        return { root: options.id ? root : null, items: now };
      };
    },
  };
}

function kept(options: ListOptions = folder, count = 500) {
  const w = world(count);
  const cache = createListingCache();
  const key = cache.keyOf(me, options)!;
  const json = cache.put(key, w.fresh(options), me, options, cache.epoch());
  expect(json).toBe(JSON.stringify(w.fresh(options)));
  const get = () => cache.get(key, w.relist(options));
  return { w, cache, key, get };
}

const event = (
  kind: SealboxEvent['kind'],
  itemId: string | undefined,
  parentId: string | null | undefined,
  userIds = ['u1'],
): SealboxEvent => ({
  kind,
  itemId,
  parentId,
  userIds,
});

describe('listing cache', () => {
  test('keeps large depth-1 answers only, and folders only with their ancestors', async () => {
    const cache = createListingCache();
    expect(cache.keyOf(me, { id: 'F', depth: 2, includeAncestors: true })).toBeUndefined();
    expect(cache.keyOf(me, { id: 'F' })).toBeUndefined();
    expect(cache.keyOf(me, {})).toBeString();
    expect(cache.keyOf({ kind: 'user', userId: 'u2' }, folder)).not.toBe(cache.keyOf(me, folder));

    const small = world(10);
    const key = cache.keyOf(me, folder)!;
    expect(cache.put(key, small.fresh(folder), me, folder, cache.epoch())).toBe(JSON.stringify(small.fresh(folder)));
    expect(await cache.get(key, small.relist(folder))).toBeUndefined();

    const { w, get } = kept();
    expect(await get()).toBe(JSON.stringify(w.fresh(folder)));
    expect(w.reads).toEqual([]);
  });

  test('an event about the folder, an ancestor or a person shown drops the answer', async () => {
    for (const e of [
      event('item.renamed', 'F', 'A'),
      event('item.moved', 'A', null),
      event('item.deleted', 'A', null),
      event('profile.changed', undefined, undefined),
      event(RESYNC_EVENT_KIND, undefined, undefined, []),
      // A kind the level does not know how to follow.
      event('share.changed', 'c0001', 'F'),
    ]) {
      const { cache, get } = kept();
      cache.apply(e);
      expect([e.kind, await get()]).toEqual([e.kind, undefined]);
    }
  });

  test('a share or link event drops every answer kept for the users it names, whatever it is about', async () => {
    // A link's events name its owner: their listings mark which items are shared.
    for (const kind of [
      'share.created',
      'share.changed',
      'share.deleted',
      'link.created',
      'link.changed',
      'link.password',
      'link.deleted',
    ] as const) {
      const { cache, get } = kept();
      const topKey = cache.keyOf(me, top)!;
      const w = world(500);
      cache.put(topKey, w.fresh(top), me, top, cache.epoch());
      // About an item this answer does not show, naming someone else: kept.
      cache.apply(event(kind, 'elsewhere', undefined, ['u2', 'u3']));
      expect(await get()).toBeString();
      // Naming its caller (who gained or lost access somewhere): both answers go.
      cache.apply(event(kind, 'elsewhere', undefined, ['u2', 'u1']));
      expect([kind, await get(), await cache.get(topKey, w.relist(top))]).toEqual([kind, undefined, undefined]);
    }
    // An answer computed while such an event arrived is not kept either.
    const cache = createListingCache();
    const w = world(500);
    const key = cache.keyOf(me, folder)!;
    const startedAt = cache.epoch();
    cache.apply(event('share.deleted', 'X', undefined, ['u1']));
    cache.put(key, w.fresh(folder), me, folder, startedAt);
    expect(await cache.get(key, w.relist(folder))).toBeUndefined();
  });

  test('a whole level follows changes to its items by re-reading just those', async () => {
    const { w, cache, get } = kept();
    const change = async (e: SealboxEvent, apply: () => void) => {
      apply();
      cache.apply(e);
      const readsBefore = w.reads.length;
      expect(await get()).toBe(JSON.stringify(w.fresh(folder)));
      expect(w.reads.slice(readsBefore)).toEqual([[e.itemId!]]);
    };
    await change(event('item.created', 'c9999', 'F'), () => w.items.set('c9999', view('c9999', 'F', 11)));
    await change(event('item.created', 'b0000', 'F'), () => w.items.set('b0000', view('b0000', 'F', 10)));
    await change(event('item.renamed', 'c0100', 'F'), () => w.items.set('c0100', view('c0100', 'F', 43, 'renamed')));
    await change(event('item.moved', 'c0200', 'F'), () => w.items.set('c0200', view('c0200', 'E', 76)));
    await change(event('item.moved', 'e0001', 'F'), () => w.items.set('e0001', view('e0001', 'F', 5)));
    await change(event('item.deleted', 'c0000', 'F'), () => w.items.delete('c0000'));
    await change(event('upload.completed', 'z0001', 'F'), () => w.items.set('z0001', view('z0001', 'F', 9999)));
    // Several changes before the next request are read together.
    for (const id of ['c0300', 'c0301']) w.items.set(id, view(id, 'F', 110, 'again'));
    w.items.delete('c0302');
    for (const id of ['c0300', 'c0301', 'c0302', 'c0300']) cache.apply(event('item.renamed', id, 'F'));
    expect(await get()).toBe(JSON.stringify(w.fresh(folder)));
    expect(w.reads.at(-1)).toEqual(['c0300', 'c0301', 'c0302']);
    // Events elsewhere change nothing and read nothing.
    const reads = w.reads.length;
    cache.apply(event('item.created', 'x', 'other'));
    cache.apply(event('quota.changed', undefined, undefined));
    cache.apply(event('profile.changed', undefined, undefined, ['u2']));
    expect(await get()).toBe(JSON.stringify(w.fresh(folder)));
    expect(w.reads.length).toBe(reads);
  });

  test('random changes anywhere in a level, splitting and emptying its blocks, keep it equal to a fresh listing', async () => {
    const { w, cache, get } = kept(folder, 600);
    // A fixed seed: a failure replays.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      // The high bits: an LCG's low bits repeat with a short period.
      return Math.floor((seed / 2 ** 31) * n);
    };
    let made = 0;
    for (let round = 0; round < 60; round++) {
      for (let op = 0; op < 20; op++) {
        const ids = [...w.items.keys()].filter((id) => w.items.get(id)!.parentId === 'F');
        const pick = ids[random(ids.length)]!;
        const kind = random(5);
        if (kind <= 1 || ids.length < 50) {
          // Into the middle, where a block fills up and splits.
          const id = `n${String(made++).padStart(5, '0')}`;
          w.items.set(id, view(id, 'F', 60 + random(2), 'new'));
          cache.apply(event('item.created', id, 'F'));
        } else if (kind === 2) {
          w.items.set(pick, { ...w.items.get(pick)!, encryptedFileName: `renamed ${round} ${op}`.padEnd(600, '=') });
          cache.apply(event('item.renamed', pick, 'F'));
        } else if (kind === 3) {
          w.items.set(pick, { ...w.items.get(pick)!, parentId: 'E' });
          cache.apply(event('item.moved', pick, 'F'));
        } else {
          // Deletes run from the end, so the last blocks empty out.
          const byPlace = (a: string, b: string) => w.items.get(a)!.createdAt - w.items.get(b)!.createdAt || (a < b ? -1 : 1);
          const last = ids.sort(byPlace).at(-1 - random(5))!;
          w.items.delete(last);
          cache.apply(event('item.deleted', last, 'F'));
        }
      }
      expect(await get()).toBe(JSON.stringify(w.fresh(folder)));
    }
    expect(cache.size()).toBe(1);
  });

  test('a change that adds or removes a person shown, or fills the level, makes the answer afresh', async () => {
    const { w, cache, get } = kept();
    w.items.set('n1', view('n1', 'F', 12, 'theirs', 'u2'));
    cache.apply(event('item.created', 'n1', 'F', ['u1', 'u2']));
    expect(await get()).toBeUndefined();

    const again = kept();
    again.w.items.set('n1', view('n1', 'F', 12, 'theirs', 'u2'));
    const key = again.key;
    again.cache.put(key, again.w.fresh(folder), me, folder, again.cache.epoch());
    again.w.items.delete('n1');
    again.cache.apply(event('item.deleted', 'n1', 'F'));
    expect(await again.get()).toBeUndefined();

    const limited = { ...folder, limit: 501 };
    const full = kept(limited);
    full.w.items.set('c9999', view('c9999', 'F', 999));
    full.cache.apply(event('item.created', 'c9999', 'F'));
    expect(await full.get()).toBeUndefined();
  });

  test('a failed re-read, too many changes, or an event during the re-read are handled', async () => {
    const { cache, key } = kept();
    cache.apply(event('item.renamed', 'c0001', 'F'));
    expect(await cache.get(key, async () => Promise.reject(new Error('not found')))).toBeUndefined();
    expect(cache.size()).toBe(0);

    const many = kept();
    for (let i = 0; i <= MAX_PENDING; i++) many.cache.apply(event('item.renamed', `c${String(i).padStart(4, '0')}`, 'F'));
    expect(await many.get()).toBeUndefined();

    // Two requests share one re-read; a change arriving during it is read in a second round.
    const { w, cache: c, get } = kept();
    w.items.set('c0001', view('c0001', 'F', 10, 'first'));
    c.apply(event('item.renamed', 'c0001', 'F'));
    const answers = [get(), get()];
    w.items.set('c0002', view('c0002', 'F', 10, 'second'));
    c.apply(event('item.renamed', 'c0002', 'F'));
    const expected = JSON.stringify(w.fresh(folder));
    expect(await Promise.all(answers)).toEqual([expected, expected]);
    expect(w.reads).toEqual([['c0001'], ['c0002']]);
  });

  test('an event landing at any moment of a re-read is never lost', async () => {
    // The event comes after 0, 1, 2, ... microtask hops from the re-read's answer, so it lands
    // at every point between the re-read and the request's answer being encoded.
    for (let hops = 0; hops < 12; hops++) {
      const { w, cache, key } = kept();
      w.items.set('c0001', view('c0001', 'F', 10, 'first'));
      cache.apply(event('item.renamed', 'c0001', 'F'));
      const relist = w.relist(folder);
      let fired = false;
      const answer = cache.get(key, async (ids) => {
        const relisted = await relist(ids);
        if (!fired) {
          fired = true;
          let hop: Promise<void> = Promise.resolve();
          for (let i = 0; i < hops; i++) hop = hop.then(() => {});
          void hop.then(() => {
            w.items.set('c0002', view('c0002', 'F', 10, 'second'));
            cache.apply(event('item.renamed', 'c0002', 'F'));
          });
        }
        return relisted;
      });
      await answer;
      await Bun.sleep(5);
      expect([hops, await cache.get(key, relist)]).toEqual([hops, JSON.stringify(w.fresh(folder))]);
    }
  });

  test('the top level follows its owner’s top-level events only', async () => {
    const w = world(0);
    for (let i = 0; i < 500; i++) w.items.set(`t${i}`, view(`t${i}`, null, i));
    const cache = createListingCache();
    const key = cache.keyOf(me, top)!;
    expect(cache.put(key, w.fresh(top), me, top, cache.epoch())).toBe(JSON.stringify(w.fresh(top)));
    cache.apply(event('item.created', 'y', null, ['u2']));
    cache.apply(event('item.created', 'z', 'F'));
    expect(await cache.get(key, w.relist(top))).toBe(JSON.stringify(w.fresh(top)));
    expect(w.reads).toEqual([]);
    w.items.set('t0', view('t0', null, 0, 'renamed'));
    cache.apply(event('item.renamed', 't0', null));
    expect(await cache.get(key, w.relist(top))).toBe(JSON.stringify(w.fresh(top)));
    expect(w.reads).toEqual([['t0']]);
  });

  test('an answer made while a relevant event arrived is not kept; an unrelated one is', async () => {
    const w = world();
    const cache = createListingCache();
    const key = cache.keyOf(me, folder)!;
    const relist = w.relist(folder);
    let started = cache.epoch();
    cache.apply(event('item.created', 'x', 'elsewhere'));
    cache.put(key, w.fresh(folder), me, folder, started);
    expect(await cache.get(key, relist)).toBe(JSON.stringify(w.fresh(folder)));

    cache.apply(event(RESYNC_EVENT_KIND, undefined, undefined, []));
    for (const e of [event('item.renamed', 'A', null), event('item.created', 'c5000', 'F')]) {
      started = cache.epoch();
      cache.apply(e);
      cache.put(key, w.fresh(folder), me, folder, started);
      expect(await cache.get(key, relist)).toBeUndefined();
    }

    // Too many events meanwhile to judge: not kept.
    started = cache.epoch();
    for (let i = 0; i < 1100; i++) cache.apply(event('quota.changed', undefined, undefined, ['u9']));
    cache.put(key, w.fresh(folder), me, folder, started);
    expect(await cache.get(key, relist)).toBeUndefined();
  });

  test('memory stays bounded: the least recently used go first', async () => {
    const cache = createListingCache();
    // Each answer counts three times over (whole, in blocks, and the views): a quarter of the
    // bound in all. Per item: its JSON, its comma, and its id again in the root's `children`.
    const perItem = 3 * (JSON.stringify(view('c0000', 'F', 1)).length + 10);
    const w = world(Math.floor(MAX_CACHED_CHARS / 4 / perItem) - 10);
    const options = (id: string) => ({ ...folder, id });
    const keys = ['F1', 'F2', 'F3', 'F4', 'F5'].map((id) => {
      const key = cache.keyOf(me, options(id))!;
      cache.put(key, w.fresh(folder), me, options(id), cache.epoch());
      return key;
    });
    expect(cache.size()).toBe(4);
    expect(await cache.get(keys[0]!, w.relist(folder))).toBeUndefined();
    expect(await cache.get(keys[1]!, w.relist(folder))).toBeString();
    const key = cache.keyOf(me, options('F6'))!;
    cache.put(key, w.fresh(folder), me, options('F6'), cache.epoch());
    expect(await cache.get(keys[1]!, w.relist(folder))).toBeString();
    expect(await cache.get(keys[2]!, w.relist(folder))).toBeUndefined();

    // An answer too large to keep at all is not kept, and does not push the others out first.
    const huge = world(Math.ceil(MAX_CACHED_CHARS / perItem) + 10);
    const hugeKey = cache.keyOf(me, options('F7'))!;
    expect(cache.put(hugeKey, huge.fresh(folder), me, options('F7'), cache.epoch())).toBe(JSON.stringify(huge.fresh(folder)));
    expect(cache.size()).toBe(4);
    expect(await cache.get(hugeKey, huge.relist(folder))).toBeUndefined();
  });
});
