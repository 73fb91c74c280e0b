import { describe, expect, test } from 'bun:test';
import { userRow, type MakeDb } from '../db.contract.ts';
import { filesFixture } from './fixture.ts';

/** The people port (ports/files/people.ts) over one adapter. */
export function peopleContract(name: string, makeDb: MakeDb): void {
  describe(`people port: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('summaries and public keys of the users that exist, each once', async () => {
      const a = userRow({ public_key: 'YVB1Yg==', signing_public_key: 'YVNpZw==' });
      const b = userRow({ public_key: 'YlB1Yg==', signing_public_key: 'YlNpZw==', avatar_extension: 'png' });
      await f.db.kysely.insertInto('users').values([a, b]).execute();
      const asked = [b.id, a.id, b.id, crypto.randomUUID()];
      const byId = <T extends { id: string }>(list: T[]) => list.sort((x, y) => (x.id < y.id ? -1 : 1));
      expect(byId(await f.store.userSummaries(asked))).toEqual(
        byId([
          { id: a.id, username: a.username, avatarExtension: null },
          { id: b.id, username: b.username, avatarExtension: 'png' },
        ]),
      );
      expect(byId(await f.store.publicUsers(asked))).toEqual(
        byId([
          { id: a.id, username: a.username, publicKey: 'YVB1Yg==', signingPublicKey: 'YVNpZw==', avatarExtension: null },
          { id: b.id, username: b.username, publicKey: 'YlB1Yg==', signingPublicKey: 'YlNpZw==', avatarExtension: 'png' },
        ]),
      );
      expect(await f.store.userSummaries([])).toEqual([]);
    });
  });
}
