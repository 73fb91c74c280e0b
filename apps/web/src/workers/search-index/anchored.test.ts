import { describe, expect, test } from 'vitest';
import type { ServerItem } from '../../model/items.ts';
import { AnchoredPages } from './anchored.ts';

const item = (id: string, parentId: string | null): ServerItem => ({
  id,
  parentId,
  isDirectory: true,
  encryptedFileName: '',
  nameNonce: '',
  encryptedMimeType: null,
  mimeTypeNonce: null,
  encryptedKey: '',
  keyNonce: '',
  fileNonce: null,
  size: 0,
  createdAt: 1,
  modifiedAt: 1,
  ownerId: 'me',
  uploaderId: 'me',
  editPermission: true,
});

const ids = (items: readonly ServerItem[]) => items.map((i) => i.id).sort();

/** Takes each page and settles all it gave as opened, except `failing`; answers each page's batch. */
function walk(pages: ServerItem[][], failing: string[] = []) {
  const anchored = new AnchoredPages();
  const batches = pages.map((page) => {
    const batch = anchored.take(page);
    anchored.settle(batch.map((i) => i.id).filter((id) => !failing.includes(id)));
    return ids(batch);
  });
  return { batches, unplaced: anchored.unplaced };
}

describe('a tree in pages, each item opened once its parent is', () => {
  test('parents first: every page opens whole', () => {
    const { batches, unplaced } = walk([
      [item('a', null), item('b', 'a')],
      [item('c', 'b'), item('d', null)],
    ]);
    expect(batches).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(unplaced).toBe(0);
  });

  test('a child before its parent (a move) waits, and comes with the parent with what is under it', () => {
    const { batches, unplaced } = walk([
      [item('child', 'late'), item('grandchild', 'child'), item('top', null)],
      [item('x', 'top')],
      [item('late', 'top')],
    ]);
    expect(batches).toEqual([['top'], ['x'], ['child', 'grandchild', 'late']]);
    expect(unplaced).toBe(0);
  });

  test('under a folder that never comes (trashed) or does not open, it is left out', () => {
    const { batches, unplaced } = walk(
      [
        [item('a', null), item('in-bin', 'binned'), item('bad', 'a')],
        [item('under-bad', 'bad'), item('ok', 'a')],
      ],
      ['bad'],
    );
    expect(batches).toEqual([['a', 'bad'], ['ok']]);
    expect(unplaced).toBe(2);
  });

  test('a cycle in bad data anchors nothing', () => {
    const { batches, unplaced } = walk([[item('p', 'q'), item('q', 'p'), item('r', null)]]);
    expect(batches).toEqual([['r']]);
    expect(unplaced).toBe(2);
  });
});
