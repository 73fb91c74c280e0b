import { describe, expect, test } from 'bun:test';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, inserted, newItem, newUser } from './fixture.ts';

/** What ports/files.ts adds to the ports it puts together: transactions and the owner's lock. */
export function filesStoreContract(name: string, makeDb: MakeDb): void {
  describe(`files store: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('a transaction commits its writes, then its events, then runs its after-commit work', async () => {
      const owner = await newUser(f);
      const item = newItem(owner);
      const order: string[] = [];
      const before = f.delivered.length;
      const result = await f.store.transaction(async (tx) => {
        await tx.insertItem(item);
        tx.publish({ kind: 'quota.changed', userIds: [owner] });
        tx.afterCommit(() => {
          order.push(`after commit, ${f.delivered.length - before} delivered`);
        });
        expect(f.delivered.length).toBe(before);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await f.store.item(item.id)).toEqual(item);
      // The insert's tree.changed (tree-version-store.ts), queued first, then the one published.
      expect(f.delivered.slice(before)).toEqual([
        { kind: 'tree.changed', userIds: [owner], treeVersion: 1, treeSince: 0, parentIds: [null] },
        { kind: 'quota.changed', userIds: [owner] },
      ]);
      expect(order).toEqual(['after commit, 2 delivered']);
    });

    test('a transaction that throws leaves nothing: no rows, no events, no after-commit work', async () => {
      const owner = await newUser(f);
      const [kept] = await inserted(f, newItem(owner));
      const item = newItem(owner);
      const before = f.delivered.length;
      let ran = false;
      const failed = f.store.transaction(async (tx) => {
        await tx.insertItem(item);
        await tx.deleteItems([kept!.id]);
        tx.publish({ kind: 'quota.changed', userIds: [owner] });
        tx.afterCommit(() => {
          ran = true;
        });
        throw new Error('rollback');
      });
      await expect(failed).rejects.toThrow('rollback');
      await Bun.sleep(20);
      expect(await f.store.items([item.id, kept!.id])).toEqual([kept!]);
      expect(f.delivered.length).toBe(before);
      expect(ran).toBe(false);
    });

    test("lockOwner holds one owner's changes one at a time", async () => {
      const owner = await newUser(f);
      const steps: string[] = [];
      const first = f.store.transaction(async (tx) => {
        await tx.lockOwner(owner);
        steps.push('first locked');
        await Bun.sleep(100);
        steps.push('first done');
      });
      await Bun.sleep(20);
      const second = f.store.transaction(async (tx) => {
        await tx.lockOwner(owner);
        steps.push('second locked');
      });
      await Promise.all([first, second]);
      expect(steps).toEqual(['first locked', 'first done', 'second locked']);
    });
  });
}
