import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openFilesHarness, patternFile, postFolder, uploadFile, type FilesHarness, type MakeFilesEnv } from '../files/harness.ts';
import { b64 } from '../sharing/context.ts';
import { anonymous, keyedUser, makeLink, shareWith, type KeyedUser } from '../sharing/harness.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * users.tree_version (docs/protocol.md "Tree version"): every kind of change to a user's items
 * bumps it by one per call (a batch once per transaction), in the same transaction, and the owner
 * alone hears `tree.changed` with the new value; nobody else's change moves it, and only the
 * signed-in owner reads it.
 */
export function treeVersionSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`tree version: ${name}`, () => {
    let h: FilesHarness;
    let app: FilesHarness['app'];
    let alice: KeyedUser;
    let bob: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      app = h.makeApp({ trashRetentionMs: 30 * DAY });
      [alice, bob] = [await keyedUser(h, app), await keyedUser(h, app)];
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    const version = async (user: KeyedUser) => {
      const answer = await user.browser.get('/api/file/tree-version');
      expect(answer.status).toBe(200);
      return answer.body.treeVersion as number;
    };
    const treeEvents = () => h.delivered.filter((e) => e.kind === 'tree.changed');

    /** Runs `change`, then expects alice's version up by `bumps` and the events to say so, to her alone. */
    const expectBumped = async (change: () => Promise<unknown>, bumps = 1) => {
      const before = await version(alice);
      const bobBefore = await version(bob);
      h.delivered.length = 0;
      await change();
      const after = await version(alice);
      expect(after).toBe(before + bumps);
      expect(await version(bob)).toBe(bobBefore);
      const events = treeEvents();
      expect(events.map((e) => e.treeVersion)).toEqual(Array.from({ length: bumps }, (_, i) => before + i + 1));
      for (const event of events) expect(event.userIds).toEqual([alice.id]);
      return events;
    };
    const rename = (user: KeyedUser, id: string) =>
      user.browser.put(`/api/file/${id}`, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) });
    const move = (user: KeyedUser, id: string, parentId: string | null) =>
      user.browser.put(`/api/file/${id}`, { type: 'move', parentId, encryptedKey: b64(48), keyNonce: b64(12) });

    test('create, upload, rename, move, trash, restore and purge each bump it once, naming the folders', async () => {
      const top = await (async () => {
        let made: Awaited<ReturnType<typeof postFolder>> | undefined;
        const [event] = await expectBumped(async () => {
          made = await postFolder(alice, null, 'Top');
        });
        expect(event?.parentIds).toEqual([null]);
        return made as NonNullable<typeof made>;
      })();
      const other = await postFolder(alice, null, 'Other');
      const file = await patternFile(top.key, top.id, 20_000, 2);
      const [uploaded] = await expectBumped(() => uploadFile(alice, file));
      expect(uploaded?.parentIds).toEqual([top.id]);

      await expectBumped(async () => expect((await rename(alice, file.id)).status).toBe(200));
      const [moved] = await expectBumped(async () => expect((await move(alice, file.id, other.id)).status).toBe(200));
      expect([...(moved?.parentIds ?? [])].sort()).toEqual([top.id, other.id].sort());

      await expectBumped(async () => expect((await alice.browser.delete(`/api/file/${other.id}`)).status).toBe(204));
      await expectBumped(async () => expect((await alice.browser.post(`/api/trash/${other.id}/restore`, {})).status).toBe(200));
      await expectBumped(async () => expect((await alice.browser.delete(`/api/file/${other.id}`)).status).toBe(204));
      const purge = await (async () => {
        const before = await version(alice);
        expect((await alice.browser.delete(`/api/trash/${other.id}`)).status).toBe(204);
        return (await version(alice)) - before;
      })();
      expect(purge).toBeGreaterThanOrEqual(1);
    });

    test('a batch call bumps it once per transaction; a refused change does not', async () => {
      const from = await postFolder(alice, null, 'From');
      const to = await postFolder(alice, null, 'To');
      const items = await Promise.all(Array.from({ length: 5 }, (_, i) => postFolder(alice, from, `f${i}`)));
      const [event] = await expectBumped(async () => {
        const answer = await alice.browser.post('/api/file/batch/move', {
          parentId: to.id,
          items: items.map((f) => ({ id: f.id, encryptedKey: b64(48), keyNonce: b64(12) })),
        });
        expect(answer.status).toBe(200);
      });
      expect([...(event?.parentIds ?? [])].sort()).toEqual([from.id, to.id].sort());
      await expectBumped(async () => {
        const answer = await alice.browser.post('/api/file/batch/delete', { ids: items.map((f) => f.id) });
        expect(answer.status).toBe(200);
      });
      // Bob may not rename alice's folder: nothing changed, nothing bumped.
      await expectBumped(async () => expect((await rename(bob, to.id)).status).toBe(404), 0);
    });

    test("an editor's change bumps the owner's version, not the editor's", async () => {
      const shared = await postFolder(alice, null, 'Shared');
      await shareWith(alice, shared, bob.id, true);
      const bobs = await version(bob);
      await expectBumped(async () => expect((await rename(bob, shared.id)).status).toBe(200));
      expect(await version(bob)).toBe(bobs);
      // Bob's own change moves his, not alice's.
      const alices = await version(alice);
      await postFolder(bob, null, 'Mine');
      expect(await version(bob)).toBe(bobs + 1);
      expect(await version(alice)).toBe(alices);
    });

    test('only the signed-in user reads their own; without a session it is 401', async () => {
      const folder = await postFolder(alice, null, 'Linked');
      const linkId = await makeLink(alice, folder);
      expect((await anonymous(h).get('/api/file/tree-version')).status).toBe(401);
      expect((await anonymous(h).get(`/api/file/tree-version?linkId=${linkId}`)).status).toBe(401);
      // A signed-in user naming alice's link still reads only their own.
      const bobs = await bob.browser.get(`/api/file/tree-version?linkId=${linkId}`);
      expect(bobs.body.treeVersion).toBe(await version(bob));
      expect(await version(bob)).not.toBe(await version(alice));
    });
  });
}
