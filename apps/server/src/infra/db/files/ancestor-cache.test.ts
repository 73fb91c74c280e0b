import { describe, expect, test } from 'bun:test';
import type { ItemRecord, ItemsWriter } from '../../../ports/files/items.ts';
import { rememberAncestors } from './ancestor-cache.ts';

const record = (id: string, parentId: string | null) => ({ id, parentId }) as ItemRecord;

/** A tree top > mid > (a, b), a reader that counts its reads, and writers that do nothing. */
function setUp() {
  const byId = new Map([record('top', null), record('mid', 'top'), record('a', 'mid'), record('b', 'mid')].map((r) => [r.id, r]));
  let reads = 0;
  const reader = {
    async ancestors(item: ItemRecord) {
      reads++;
      const chain: ItemRecord[] = [];
      for (let at = item.parentId; at !== null; at = byId.get(at)!.parentId) chain.push(byId.get(at)!);
      return chain;
    },
  };
  const idle = async (..._args: unknown[]) => {};
  const writer = {
    insertItem: idle,
    updateItem: idle,
    replaceContent: idle,
    markTrashed: idle,
    clearTrashed: idle,
    markDeleting: idle,
    deleteItems: idle,
    lockOwner: idle,
  } satisfies ItemsWriter & { lockOwner: () => Promise<void> };
  return { tx: rememberAncestors(reader, writer), byId, reads: () => reads };
}

describe('a transaction remembers ancestors by parent', () => {
  test('siblings share one read, and a change to one of them keeps it', async () => {
    const { tx, byId, reads } = setUp();
    expect((await tx.ancestors(byId.get('a')!)).map((r) => r.id)).toEqual(['mid', 'top']);
    await tx.updateItem('a', { parentId: 'top' });
    expect((await tx.ancestors(byId.get('b')!)).map((r) => r.id)).toEqual(['mid', 'top']);
    expect(reads()).toBe(1);
    expect(await tx.ancestors(byId.get('top')!)).toEqual([]);
    expect(reads()).toBe(1);
  });

  test('a change to an ancestor, a lock or any other write reads again', async () => {
    const { tx, byId, reads } = setUp();
    const b = byId.get('b')!;
    await tx.ancestors(b);
    await tx.updateItem('mid', { parentId: null });
    await tx.ancestors(b);
    expect(reads()).toBe(2);
    await tx.lockOwner();
    await tx.ancestors(b);
    expect(reads()).toBe(3);
    await tx.markTrashed('x', 0, null);
    await tx.ancestors(b);
    expect(reads()).toBe(4);
  });

  test('a caller changing the answer does not change the next one', async () => {
    const { tx, byId } = setUp();
    (await tx.ancestors(byId.get('a')!)).pop();
    expect((await tx.ancestors(byId.get('a')!)).map((r) => r.id)).toEqual(['mid', 'top']);
  });
});
