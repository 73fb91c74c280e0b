import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../../src/domain/errors.ts';
import type { AccessRecord } from '../../../src/ports/files.ts';
import type { MakeDb } from '../db.contract.ts';
import { caught, filesFixture, inserted, newItem, newUser, NOW, type FilesFixture } from './fixture.ts';

/** An access entry of `userId` on `itemId`, inserted. */
async function granted(f: FilesFixture, itemId: string, userId: string, overrides: Partial<AccessRecord> = {}) {
  const entry: AccessRecord = {
    itemId,
    userId,
    encryptedKey: 'd3JhcHBlZA==',
    signature: 'c2lnbmF0dXJl',
    edit: false,
    sharerId: null,
    createdAt: NOW,
    ...overrides,
  };
  await f.store.transaction((tx) => tx.insertAccess(entry));
  return entry;
}

/** The sharing port (ports/files/sharing.ts) over one adapter. */
export function sharingContract(name: string, makeDb: MakeDb): void {
  describe(`sharing port: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('an entry comes back as inserted; a second one for the same item and user is CONFLICT', async () => {
      const owner = await newUser(f);
      const bob = await newUser(f);
      const [a, b] = await inserted(f, newItem(owner), newItem(owner));
      const onA = await granted(f, a!.id, bob, { edit: true, sharerId: owner });
      const onB = await granted(f, b!.id, bob);
      const byItem = (x: AccessRecord, y: AccessRecord) => (x.itemId < y.itemId ? -1 : 1);
      const found = await f.store.accessesFor(bob, [a!.id, b!.id, a!.id, crypto.randomUUID()]);
      expect(found.sort(byItem)).toEqual([onA, onB].sort(byItem));
      expect(await f.store.accessesFor(owner, [a!.id])).toEqual([]);
      expect(((await caught(granted(f, a!.id, bob))) as DomainError).code).toBe('CONFLICT');
    });

    test('accessesOn: every entry on these items, oldest first (then by user id)', async () => {
      const owner = await newUser(f);
      const [item] = await inserted(f, newItem(owner));
      const users = [await newUser(f), await newUser(f), await newUser(f)];
      const late = await granted(f, item!.id, users[0]!, { createdAt: NOW + 1 });
      const tied = [await granted(f, item!.id, users[1]!), await granted(f, item!.id, users[2]!)].sort((x, y) =>
        x.userId < y.userId ? -1 : 1,
      );
      expect(await f.store.accessesOn([item!.id, item!.id])).toEqual([...tied, late]);
    });

    test('updateAccess and deleteAccess say whether there was such an entry', async () => {
      const owner = await newUser(f);
      const bob = await newUser(f);
      const [item] = await inserted(f, newItem(owner));
      const entry = await granted(f, item!.id, bob);
      const changes = { edit: true, signature: 'bmV3' };
      expect(await f.store.transaction((tx) => tx.updateAccess(item!.id, bob, changes))).toBe(true);
      expect(await f.store.accessesFor(bob, [item!.id])).toEqual([{ ...entry, ...changes }]);
      expect(await f.store.transaction((tx) => tx.updateAccess(item!.id, owner, changes))).toBe(false);
      expect(await f.store.transaction((tx) => tx.deleteAccess(item!.id, bob))).toBe(true);
      expect(await f.store.transaction((tx) => tx.deleteAccess(item!.id, bob))).toBe(false);
      expect(await f.store.accessesOn([item!.id])).toEqual([]);
    });

    test('sharedWith: oldest first (then by item id), paged, without the items of accounts the user blocks', async () => {
      const [alice, carol, bob] = [await newUser(f), await newUser(f), await newUser(f)];
      const [first, tieA, tieB] = await inserted(f, newItem(alice), newItem(alice), newItem(alice));
      const [blockedOnes] = await inserted(f, newItem(carol));
      await granted(f, blockedOnes!.id, bob, { createdAt: NOW - 1 });
      const entries = [
        await granted(f, first!.id, bob, { createdAt: NOW - 1 }),
        ...[await granted(f, tieA!.id, bob), await granted(f, tieB!.id, bob)].sort((x, y) => (x.itemId < y.itemId ? -1 : 1)),
      ];
      await f.store.transaction((tx) => tx.insertBlock({ userId: bob, blockedId: carol, createdAt: NOW }));
      expect(await f.store.sharedWith(bob, { limit: 2, offset: 0 })).toEqual(entries.slice(0, 2));
      expect(await f.store.sharedWith(bob, { limit: 2, offset: 2 })).toEqual(entries.slice(2));
      expect(await f.store.sharedWith(carol, { limit: 10, offset: 0 })).toEqual([]);
    });
  });
}
