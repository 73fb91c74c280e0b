import { describe, expect, test } from 'bun:test';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, inserted, newItem, newUser } from './fixture.ts';

/** The quota port (ports/files/quota.ts) over one adapter, inside transactions of the files store. */
export function quotaContract(name: string, makeDb: MakeDb): void {
  describe(`quota port: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('a new account: its total, nothing used or reserved, no items; an unknown one has none', async () => {
      const user = await newUser(f, 5 * 2 ** 32);
      const quota = { userId: user, usedSpace: 0, reservedSpace: 0, totalSpace: 5 * 2 ** 32, itemCount: 0 };
      expect(await f.quota.quota(user)).toEqual(quota);
      expect(await f.store.transaction((tx) => f.quota.lockQuota(tx, user))).toEqual(quota);
      expect(await f.quota.quota(crypto.randomUUID())).toBeUndefined();
      await inserted(f, newItem(user), newItem(user));
      expect((await f.quota.quota(user))?.itemCount).toBe(2);
    });

    test('adjustSpace adds to used and reserved in the transaction, and goes with it on rollback', async () => {
      const user = await newUser(f);
      await f.store.transaction(async (tx) => {
        await f.quota.adjustSpace(tx, user, { used: 2 ** 33, reserved: 500 });
        await f.quota.adjustSpace(tx, user, {});
        await f.quota.adjustSpace(tx, user, { reserved: -200 });
        expect(await f.quota.lockQuota(tx, user)).toMatchObject({ usedSpace: 2 ** 33, reservedSpace: 300 });
      });
      expect(await f.quota.quota(user)).toMatchObject({ usedSpace: 2 ** 33, reservedSpace: 300 });
      const rolledBack = f.store.transaction(async (tx) => {
        await f.quota.adjustSpace(tx, user, { used: -(2 ** 33) });
        throw new Error('rollback');
      });
      await expect(rolledBack).rejects.toThrow('rollback');
      expect(await f.quota.quota(user)).toMatchObject({ usedSpace: 2 ** 33, reservedSpace: 300 });
    });
  });
}
