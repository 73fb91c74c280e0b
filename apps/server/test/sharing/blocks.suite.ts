import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { MAX_BLOCKS_PER_USER } from '../../src/domain/files/index.ts';
import { folderMeta, openFilesHarness, postFolder, type FilesHarness, type MakeFilesEnv } from '../files/harness.ts';
import { anonymous, create, keyedUser, shareWith, snapshot, type KeyedUser } from './harness.ts';

const ids = (files: Array<{ id: string }>) => files.map((f) => f.id).sort();

/**
 * Blocked accounts (docs/protocol.md "Blocked accounts"): a user stops the shares of an account
 * from reaching their "Shared with me": not listed, not announced, new ones hidden, until the
 * block is lifted.
 */
export function blocksSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`blocked accounts: ${name}`, () => {
    let h: FilesHarness;
    let alice: KeyedUser;
    let bob: KeyedUser;
    let carol: KeyedUser;
    let dave: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      [alice, bob, carol, dave] = [await keyedUser(h), await keyedUser(h), await keyedUser(h), await keyedUser(h)];
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    const eventsFor = (userId: string) => h.delivered.filter((event) => event.userIds.includes(userId));
    const sharedIds = async (user: KeyedUser) => ids((await user.browser.get('/api/shared')).body.files);

    test("a blocked account's shares are not listed nor announced, new ones stay hidden, until unblocked", async () => {
      const F = await postFolder(alice, null, 'F');
      const G = await postFolder(carol, null, 'G');
      await shareWith(alice, F, bob.id, false);
      await shareWith(alice, F, dave.id, false);
      await shareWith(carol, G, bob.id, false);
      expect(await sharedIds(bob)).toEqual([F.id, G.id].sort());

      h.delivered.length = 0;
      const blocked = await bob.browser.put(`/api/blocks/${alice.id}`);
      expect(blocked.status).toBe(204);
      expect(h.delivered).toEqual([{ kind: 'blocks.changed', userIds: [bob.id] }]);
      const listed = await bob.browser.get('/api/blocks');
      expect(listed.body.blocks).toEqual([{ userId: alice.id, createdAt: expect.any(Number) }]);
      expect(listed.body.users).toEqual([{ id: alice.id, username: alice.username, avatarExtension: null }]);

      // Not listed; carol's share still is, and dave still sees alice's.
      expect(await sharedIds(bob)).toEqual([G.id]);
      expect((await bob.browser.get('/api/shared')).body.nextOffset).toBeNull();
      expect(await sharedIds(dave)).toEqual([F.id]);

      // Nothing about alice's items reaches bob: a change inside F, a new share, a switch.
      h.delivered.length = 0;
      await postFolder(alice, F, 'inside');
      const X = await postFolder(alice, null, 'X');
      // Taken as before (the sharer is not told), and hidden.
      await shareWith(alice, X, bob.id, true);
      expect(await sharedIds(bob)).toEqual([G.id]);
      expect(eventsFor(bob.id)).toEqual([]);
      expect(eventsFor(dave.id).map((event) => event.kind)).toEqual(['item.created']);
      expect(h.delivered.filter((event) => event.kind === 'share.created')).toEqual([
        { kind: 'share.created', itemId: X.id, userIds: [alice.id] },
      ]);

      // A block takes no access away: only the owner revokes.
      expect((await bob.browser.get(`/api/file?id=${F.id}`)).status).toBe(200);

      // Blocking again changes nothing; unblocking shows everything, the hidden share too.
      expect((await bob.browser.put(`/api/blocks/${alice.id}`)).status).toBe(204);
      expect((await bob.browser.get('/api/blocks')).body.blocks).toHaveLength(1);
      h.delivered.length = 0;
      expect((await bob.browser.delete(`/api/blocks/${alice.id}`)).status).toBe(204);
      expect(h.delivered).toEqual([{ kind: 'blocks.changed', userIds: [bob.id] }]);
      expect(await sharedIds(bob)).toEqual([F.id, G.id, X.id].sort());
      expect((await bob.browser.get('/api/blocks')).body).toEqual({ blocks: [], users: [] });
      h.delivered.length = 0;
      await create(alice, await folderMeta(F.key, F.id, 'after'));
      expect(eventsFor(bob.id).map((event) => event.kind)).toEqual(['item.created']);
      expect((await bob.browser.delete(`/api/blocks/${alice.id}`)).status).toBe(404);
    });

    test('bad input is a clear 4xx and changes nothing', async () => {
      const before = await snapshot(h);
      const blocksBefore = await h.db.kysely.selectFrom('share_blocks').selectAll().execute();
      const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, string]> = [
        ['blocking oneself', () => bob.browser.put(`/api/blocks/${bob.id}`), 400, 'VALIDATION'],
        ['a malformed id', () => bob.browser.put('/api/blocks/not-a-user'), 400, 'VALIDATION'],
        ['an upper-case id', () => bob.browser.put(`/api/blocks/${alice.id.toUpperCase()}`), 400, 'VALIDATION'],
        ['an unknown user', () => bob.browser.put(`/api/blocks/${crypto.randomUUID()}`), 404, 'NOT_FOUND'],
        ['unblocking one never blocked', () => bob.browser.delete(`/api/blocks/${carol.id}`), 404, 'NOT_FOUND'],
        ['unblocking a malformed id', () => bob.browser.delete('/api/blocks/x'), 400, 'VALIDATION'],
        ['without a session', () => anonymous(h).put(`/api/blocks/${alice.id}`), 401, 'UNAUTHORIZED'],
        ['listing without a session', () => anonymous(h).get('/api/blocks'), 401, 'UNAUTHORIZED'],
      ];
      for (const [what, call, status, error] of cases) {
        const answer = await call();
        expect({ what, status: answer.status, error: answer.body?.error }).toEqual({ what, status, error });
      }
      expect(await snapshot(h)).toEqual(before);
      expect(await h.db.kysely.selectFrom('share_blocks').selectAll().execute()).toEqual(blocksBefore);
    });

    test(`at most ${MAX_BLOCKS_PER_USER} blocks: the next is 409 and changes nothing`, async () => {
      const erin = await keyedUser(h);
      const k = h.db.kysely;
      const template = await k.selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
      const others = Array.from({ length: MAX_BLOCKS_PER_USER }, () => crypto.randomUUID());
      for (let i = 0; i < others.length; i += 100) {
        const rows = others.slice(i, i + 100).map((id) => ({
          ...template,
          id,
          username: `b-${id.slice(0, 16)}`,
          username_key: `b-${id.slice(0, 16)}`,
          email: null,
          email_key: null,
        }));
        await k.insertInto('users').values(rows).execute();
        await k
          .insertInto('share_blocks')
          .values(rows.map((row) => ({ user_id: erin.id, blocked_id: row.id, created_at: h.clock.now })))
          .execute();
      }
      const refused = await erin.browser.put(`/api/blocks/${alice.id}`);
      expect([refused.status, refused.body.error]).toEqual([409, 'CONFLICT']);
      expect((await erin.browser.get('/api/blocks')).body.blocks).toHaveLength(MAX_BLOCKS_PER_USER);
      // One already blocked is still fine, and unblocking makes room.
      expect((await erin.browser.put(`/api/blocks/${others[0]}`)).status).toBe(204);
      expect((await erin.browser.delete(`/api/blocks/${others[0]}`)).status).toBe(204);
      expect((await erin.browser.put(`/api/blocks/${alice.id}`)).status).toBe(204);
    });
  });
}
