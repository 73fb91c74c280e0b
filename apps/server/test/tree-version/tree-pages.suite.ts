import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openFilesHarness, postFile, postFolder, type FilesHarness, type MakeFilesEnv } from '../files/harness.ts';
import { b64 } from '../sharing/context.ts';
import { anonymous, keyedUser, makeLink, shareWith, type KeyedUser } from '../sharing/harness.ts';

const DAY = 24 * 60 * 60 * 1000;

interface Listed {
  id: string;
  parentId: string | null;
  ownerId: string;
  createdAt: number;
}

/**
 * GET /api/file/tree (docs/protocol.md "Tree version and search index"): the signed-in caller's
 * own ready items, every level, a keyset page at a time; bad cursors and limits are 400 and
 * change nothing; nobody reads another's tree, and a link holder has none.
 */
export function treePagesSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`tree pages: ${name}`, () => {
    let h: FilesHarness;
    let alice: KeyedUser;
    let bob: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      const app = h.makeApp({ trashRetentionMs: 30 * DAY });
      [alice, bob] = [await keyedUser(h, app), await keyedUser(h, app)];
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    /** Every page from the start, `limit` at a time; answers the items and the pages' `total`s. */
    const walk = async (user: KeyedUser, limit: number) => {
      const items: Listed[] = [];
      const totals: Array<number | undefined> = [];
      let after: string | null = null;
      for (let pages = 0; pages < 1000; pages++) {
        const query: string = `limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const answer = await user.browser.get(`/api/file/tree?${query}`);
        expect(answer.status).toBe(200);
        expect(answer.body.files.length).toBeLessThanOrEqual(limit);
        items.push(...answer.body.files);
        totals.push(answer.body.total);
        after = answer.body.next;
        if (after === null) return { items, totals };
      }
      throw new Error('the walk never ended');
    };
    const idsOf = (items: readonly Listed[]) => items.map((item) => item.id);

    test('pages walk every ready own item once, in creation order, at any depth', async () => {
      const top = await postFolder(alice, null, 'Top');
      const sub = await postFolder(alice, top, 'Sub');
      const deep = await postFile(alice, sub, 1000, 1);
      const other = await postFolder(alice, null, 'Other');
      const trashed = await postFolder(alice, null, 'Bin me');
      const underTrashed = await postFolder(alice, trashed, 'Inside');
      expect((await alice.browser.delete(`/api/file/${trashed.id}`)).status).toBe(204);
      // Bob's folder shared with alice stays in bob's tree; what bob makes in alice's is hers.
      const bobs = await postFolder(bob, null, 'Bobs');
      await shareWith(bob, bobs, alice.id, true);
      await shareWith(alice, other, bob.id, true);
      const byBob = await postFolder(bob, other, 'By bob');
      // A move puts an older folder under a newer one: a child may come before its parent.
      const newest = await postFolder(alice, null, 'Newest');
      const moved = await alice.browser.put(`/api/file/${top.id}`, {
        type: 'move',
        parentId: newest.id,
        encryptedKey: b64(48),
        keyNonce: b64(12),
      });
      expect(moved.status).toBe(200);

      const expected = [top, sub, deep, other, underTrashed, byBob, newest].map((item) => item.id).sort();
      for (const limit of [1, 2, 3, 5000]) {
        const { items, totals } = await walk(alice, limit);
        expect(idsOf(items).sort()).toEqual(expected);
        expect(new Set(idsOf(items)).size).toBe(items.length);
        for (const item of items) expect(item.ownerId).toBe(alice.id);
        // Creation order, ties broken by id (the test clock often stands still).
        const ordered = [...items].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
        expect(idsOf(items)).toEqual(idsOf(ordered));
        expect(totals[0]).toBe(expected.length);
        for (const total of totals.slice(1)) expect(total).toBeUndefined();
      }
      expect(idsOf((await walk(bob, 2)).items).sort()).toEqual([bobs.id]);
    });

    test('an item made during the walk comes on a later page; none is given twice', async () => {
      const first = await alice.browser.get('/api/file/tree?limit=2');
      expect(first.body.next).toEqual(expect.any(String));
      // Made later (the clock moves on): it sorts after every cursor given so far.
      h.clock.advance(1);
      const later = await postFolder(alice, null, 'Made meanwhile');
      const rest: Listed[] = [];
      let after: string | null = first.body.next;
      while (after !== null) {
        const answer = await alice.browser.get(`/api/file/tree?limit=2&after=${encodeURIComponent(after)}`);
        rest.push(...answer.body.files);
        after = answer.body.next;
      }
      expect(idsOf(rest)).toContain(later.id);
      const all = [...idsOf(first.body.files), ...idsOf(rest)];
      expect(new Set(all).size).toBe(all.length);
    });

    test('a bad cursor or limit is 400 and changes nothing', async () => {
      const versionBefore = (await alice.browser.get('/api/file/tree-version')).body.treeVersion;
      const id = (await alice.browser.get('/api/file/tree?limit=1')).body.files[0].id as string;
      const bad = [
        'limit=0',
        'limit=10001',
        'limit=-1',
        'limit=x',
        'limit=1.5',
        'after=',
        'after=x',
        `after=${id}`,
        `after=.${id}`,
        `after=-5.${id}`,
        `after=1e3.${id}`,
        `after=99999999999999999999.${id}`,
        `after=5.${id.toUpperCase()}`,
        'after=5.not-a-uuid',
        `after=5.${id}x`,
        `after=${'9'.repeat(100)}`,
      ];
      for (const query of bad) {
        const answer = await alice.browser.get(`/api/file/tree?${query}`);
        expect({ query, status: answer.status }).toEqual({ query, status: 400 });
        expect(answer.body.error).toBe('VALIDATION');
      }
      expect((await alice.browser.get('/api/file/tree-version')).body.treeVersion).toBe(versionBefore);
    });

    test('without a session it is 401, a link too; a signed-in caller gets only their own', async () => {
      const folder = await postFolder(alice, null, 'Linked');
      const linkId = await makeLink(alice, folder);
      expect((await anonymous(h).get('/api/file/tree')).status).toBe(401);
      expect((await anonymous(h).get(`/api/file/tree?linkId=${linkId}`)).status).toBe(401);
      const alicesIds = new Set(idsOf((await walk(alice, 5000)).items));
      const bobsPage = await bob.browser.get('/api/file/tree');
      expect(bobsPage.status).toBe(200);
      for (const item of bobsPage.body.files as Listed[]) {
        expect(item.ownerId).toBe(bob.id);
        expect(alicesIds.has(item.id)).toBe(false);
      }
      // Alice's cursor in bob's hands walks bob's tree, from that place: nothing of hers.
      const alicesCursor = (await alice.browser.get('/api/file/tree?limit=1')).body.next as string;
      const fromThere = await bob.browser.get(`/api/file/tree?after=${encodeURIComponent(alicesCursor)}`);
      expect(fromThere.status).toBe(200);
      for (const item of fromThere.body.files as Listed[]) expect(item.ownerId).toBe(bob.id);
    });
  });
}
