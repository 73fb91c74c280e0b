import { describe, expect, test } from 'bun:test';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, newUser, NOW } from './fixture.ts';

/** The blocks port (ports/files/blocks.ts) over one adapter. */
export function blocksContract(name: string, makeDb: MakeDb): void {
  describe(`blocks port: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('a block is added once; blocksOf lists them oldest first (then by blocked id)', async () => {
      const [bob, x, y, z] = [await newUser(f), await newUser(f), await newUser(f), await newUser(f)];
      const block = (blockedId: string, createdAt: number) => ({ userId: bob, blockedId, createdAt });
      const added = await f.store.transaction(async (tx) => [
        await tx.insertBlock(block(z, NOW + 1)),
        await tx.insertBlock(block(x, NOW)),
        await tx.insertBlock(block(y, NOW)),
        await tx.insertBlock(block(x, NOW + 5)),
      ]);
      expect(added).toEqual([true, true, true, false]);
      const tied = [block(x, NOW), block(y, NOW)].sort((a, b) => (a.blockedId < b.blockedId ? -1 : 1));
      expect(await f.store.blocksOf(bob)).toEqual([...tied, block(z, NOW + 1)]);
      expect(await f.store.blocksOf(x)).toEqual([]);
    });

    test('blockersAmong names who blocks an account; deleteBlock says whether there was one', async () => {
      const [owner, bob, carol, dave] = [await newUser(f), await newUser(f), await newUser(f), await newUser(f)];
      await f.store.transaction(async (tx) => {
        await tx.insertBlock({ userId: bob, blockedId: owner, createdAt: NOW });
        await tx.insertBlock({ userId: carol, blockedId: owner, createdAt: NOW });
        await tx.insertBlock({ userId: dave, blockedId: bob, createdAt: NOW });
      });
      expect(await f.store.blockersAmong(owner, [bob, carol, dave, bob])).toEqual(new Set([bob, carol]));
      expect(await f.store.blockersAmong(owner, [])).toEqual(new Set());
      expect(await f.store.transaction((tx) => tx.deleteBlock(bob, owner))).toBe(true);
      expect(await f.store.transaction((tx) => tx.deleteBlock(bob, owner))).toBe(false);
      expect(await f.store.blockersAmong(owner, [bob, carol])).toEqual(new Set([carol]));
    });
  });
}
