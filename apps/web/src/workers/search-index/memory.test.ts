import { describe, expect, test } from 'vitest';
import type { ItemView } from '../../model/items.ts';
import { MemoryIndex } from './memory.ts';
import { bridge } from './versions.ts';

const view = (id: string, parentId: string | null, name: string, isDirectory = false): ItemView => ({
  id,
  name,
  mimeType: null,
  extension: '',
  isDirectory,
  parentId,
  size: 0,
  cipherSize: 0,
  createdAt: 1,
  modifiedAt: 1,
  ownerId: 'me',
  uploaderId: 'me',
  editPermission: true,
  decrypted: true,
});

describe('search index in memory', () => {
  const tree = () => {
    const index = new MemoryIndex('me');
    index.add([
      view('a', null, 'Photos', true),
      view('b', 'a', 'Beach.JPG'),
      view('c', 'a', 'Trip', true),
      view('d', 'c', 'beach notes.txt'),
      view('x', null, 'Other'),
      { ...view('e', null, 'undecrypted'), name: null, decrypted: false },
      { ...view('f', null, 'not mine'), ownerId: 'someone' },
    ]);
    return index;
  };
  const ids = (index: MemoryIndex, q: string) =>
    index
      .find(q, 100)
      .results.map((r) => r.id)
      .sort();

  test('matches as the tree search did: trimmed, any case, anywhere in the name; with the folders above', () => {
    const index = tree();
    expect(ids(index, '  BEACH ')).toEqual(['b', 'd']);
    expect(ids(index, 'undecrypted')).toEqual([]);
    expect(ids(index, 'mine')).toEqual([]);
    const found = index.find('notes', 100);
    expect(found.folders.map((f) => f.id).sort()).toEqual(['a', 'c']);
    expect(found.results[0]).toMatchObject({ id: 'd', name: 'beach notes.txt', extension: 'txt', ownerId: 'me' });
    expect(index.find('e', 1)).toMatchObject({ total: 3 });
    expect(index.find('e', 1).results).toHaveLength(1);
    expect([null, 'a', 'c', 'gone'].map((id) => index.depthOf(id))).toEqual([0, 1, 2, 65]);
  });

  test("a folder's new listing replaces its children; what was under a removed folder is unreachable and pruned", () => {
    const index = tree();
    // "Trip" (c) renamed, "Beach.JPG" (b) gone from Photos.
    const same = index.replaceChildren('c', [view('d', 'c', 'beach notes.txt')]);
    expect(same).toEqual({ fresh: [], changed: false });
    const { fresh, changed } = index.replaceChildren('a', [view('c', 'a', 'Journey', true), view('n', 'a', 'New folder', true)]);
    expect(fresh).toEqual(['n']);
    expect(changed).toBe(true);
    expect(ids(index, 'beach')).toEqual(['d']);
    expect(ids(index, 'journey')).toEqual(['c']);
    // Photos trashed: gone from the top level, and d with it.
    index.replaceChildren(null, [view('x', null, 'Other')]);
    expect(ids(index, 'beach')).toEqual([]);
    expect(index.has('d')).toBe(true);
    index.prune();
    expect(index.has('d')).toBe(false);
    expect(index.size).toBe(1);
  });
});

describe('what is shared, in the index', () => {
  test("others' items with their owner and rights, every one found, the folders above within the shares", () => {
    const index = new MemoryIndex('me', [], true);
    index.add([
      { ...view('s', 'owners-folder', 'Project', true), ownerId: 'alice', editPermission: false },
      { ...view('t', 's', 'Project plan.txt'), ownerId: 'alice', editPermission: false, untrusted: true },
      { ...view('u', 'other', 'Plan B'), ownerId: 'bob' },
    ]);
    const found = index.find('plan', 10);
    expect(found.results.map((r) => [r.id, r.ownerId, r.editPermission, r.untrusted]).sort()).toEqual([
      ['t', 'alice', false, true],
      ['u', 'bob', true, undefined],
    ]);
    expect(found.folders.map((f) => f.id)).toEqual(['s']);
    index.prune();
    expect(index.size).toBe(3);
  });
});

describe('tree version bridging', () => {
  test('next in line applies, the past is included, a gap or an unnamed change is stale', () => {
    expect(bridge(5, { treeSince: 5, treeVersion: 6, parentIds: [null] })).toBe('apply');
    expect(bridge(5, { treeSince: 5, treeVersion: 9, parentIds: ['a'] })).toBe('apply');
    expect(bridge(5, { treeSince: 4, treeVersion: 5, parentIds: [null] })).toBe('included');
    expect(bridge(5, { treeSince: 6, treeVersion: 7, parentIds: [null] })).toBe('stale');
    expect(bridge(5, { treeSince: 5, treeVersion: 6 })).toBe('stale');
    expect(bridge(5, { treeSince: 3, treeVersion: 6, parentIds: [null] })).toBe('stale');
  });
});
