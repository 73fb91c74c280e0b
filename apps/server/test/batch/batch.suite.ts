import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { BATCH_MAX } from '../../src/domain/files/index.ts';
import {
  openFilesHarness,
  patternFile,
  postFolder,
  seedTree,
  space,
  storedBytes,
  uploadFile,
  type FilesHarness,
  type MakeFilesEnv,
} from '../files/harness.ts';
import { b64 } from '../sharing/context.ts';
import { LiveClient, serveWithLiveHub, type LiveMessage } from '../support/live-client.ts';
import { anonymous, keyedUser, makeLink, shareWith, snapshot, type KeyedUser } from '../sharing/harness.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Batch changes (docs/protocol.md "Batch changes"): many items moved or deleted in one call, each
 * through the one access check and in its own transaction, each answered in order; a refused
 * item changes nothing and leaves the others changed; a malformed call changes nothing at all.
 */
export function batchSuite(name: string, makeEnv: MakeFilesEnv, { many = 10_000 }: { many?: number } = {}) {
  // The many-item test in two calls of at most BATCH_MAX each: 30% in a shared folder, 70% not.
  const perCall = Math.min(BATCH_MAX, many / 2);
  const inShared = many * 0.3;
  describe(`batch changes: ${name}`, () => {
    let h: FilesHarness;
    let app: FilesHarness['app'];
    let base: string;
    let alice: KeyedUser;
    let bob: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      // Listening, with a live hub: the live tests watch sockets as tabs do.
      ({ app, base } = serveWithLiveHub(h, { trashRetentionMs: 30 * DAY }));
      [alice, bob] = [await keyedUser(h, app), await keyedUser(h, app)];
    });
    afterAll(async () => {
      await app?.stop(true);
      await h?.cleanup();
    });

    const childIds = async (user: KeyedUser, id: string) =>
      ((await user.browser.get(`/api/file?id=${id}&depth=1`)).body.files as Array<{ id: string }>).map((f) => f.id).sort();
    const moveEntry = (id: string) => ({ id, encryptedKey: b64(48), keyNonce: b64(12) });
    const sorted = (ids: string[]) => [...ids].sort();

    test('moves and deletes many items in one call, each answered in order; refused ones change nothing', async () => {
      const from = await postFolder(alice, null, 'From');
      const to = await postFolder(alice, null, 'To');
      const folders = await Promise.all(Array.from({ length: 40 }, (_, i) => postFolder(alice, from, `f${i}`)));
      const file = await patternFile(from.key, from.id, 30_000, 4);
      await uploadFile(alice, file);
      const bobs = await postFolder(bob, null, 'Bobs');
      const moved = [...folders.map((f) => f.id), file.id];

      h.delivered.length = 0;
      const answer = await alice.browser.post('/api/file/batch/move', {
        parentId: to.id,
        items: [...moved.map(moveEntry), moveEntry(bobs.id), moveEntry(crypto.randomUUID()), moveEntry(to.id)],
      });
      expect(answer.status).toBe(200);
      const results = answer.body.results as Array<{ id: string; ok: boolean; error?: string }>;
      expect(results.map((r) => r.id)).toEqual([...moved, bobs.id, expect.any(String), to.id]);
      expect(results.slice(0, moved.length).every((r) => r.ok)).toBe(true);
      expect(results.slice(moved.length).map((r) => [r.ok, r.error])).toEqual([
        [false, 'NOT_FOUND'],
        [false, 'NOT_FOUND'],
        [false, 'VALIDATION'],
      ]);
      expect(await childIds(alice, to.id)).toEqual(sorted(moved));
      expect(await childIds(alice, from.id)).toEqual([]);
      expect(await childIds(bob, bobs.id)).toEqual([]);
      // One event for the call (event-batch.ts), naming the items that moved, not one per item.
      expect(h.delivered.filter((e) => e.kind === 'item.moved')).toEqual([]);
      const told = h.delivered.filter((e) => e.kind === 'items.changed');
      expect(told.map((e) => e.userIds)).toEqual([[alice.id]]);
      expect(told[0]!.itemIds).toEqual(sorted(moved));
      expect(told[0]!.parentIds).toEqual(sorted([from.id, to.id]));

      // Deleted in one call: to the owner's trash, every byte still counted; bob's item untouched.
      const used = (await space(h, alice.id)).used;
      const deleted = await alice.browser.post('/api/file/batch/delete', { ids: [...moved, bobs.id] });
      expect(deleted.status).toBe(200);
      expect(deleted.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([...moved.map(() => true), false]);
      expect(await childIds(alice, to.id)).toEqual([]);
      expect((await alice.browser.get('/api/trash?limit=1000')).body.files.length).toBe(moved.length);
      expect((await space(h, alice.id)).used).toBe(used);
      expect(await storedBytes(h, alice.id)).toBe(used);
      expect((await bob.browser.get(`/api/file?id=${bobs.id}&depth=1`)).status).toBe(200);
    }, 60_000);

    test('others see only their rights: a stranger gets 404s, a viewer 403s, an editor link changes what it reaches', async () => {
      const shared = await postFolder(alice, null, 'Shared');
      const inside = await Promise.all(Array.from({ length: 5 }, (_, i) => postFolder(alice, shared, `s${i}`)));
      const ids = inside.map((f) => f.id);
      const stranger = await bob.browser.post('/api/file/batch/delete', { ids });
      expect(stranger.body.results.map((r: { error: string }) => r.error)).toEqual(ids.map(() => 'NOT_FOUND'));
      await shareWith(alice, shared, bob.id, false);
      const viewLink = await makeLink(alice, shared);
      const before = await snapshot(h);
      const viewer = await bob.browser.post('/api/file/batch/move', { parentId: shared.id, items: ids.map(moveEntry) });
      expect(viewer.body.results.map((r: { error: string }) => r.error)).toEqual(ids.map(() => 'FORBIDDEN'));
      const anon = await anonymous(h).post(`/api/file/batch/delete?linkId=${viewLink}`, { ids });
      expect(anon.body.results.map((r: { error: string }) => r.error)).toEqual(ids.map(() => 'FORBIDDEN'));
      expect(await snapshot(h)).toEqual(before);

      const editLink = await makeLink(alice, shared, { edit: true });
      const editor = await anonymous(h).post(`/api/file/batch/delete?linkId=${editLink}`, { ids: ids.slice(0, 3) });
      expect(editor.status).toBe(200);
      expect(editor.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
      expect(await childIds(alice, shared.id)).toEqual(sorted(ids.slice(3)));
      // The linked folder itself is never deleted through its link.
      const itself = await anonymous(h).post(`/api/file/batch/delete?linkId=${editLink}`, { ids: [shared.id] });
      expect(itself.body.results[0]).toMatchObject({ id: shared.id, ok: false });
      expect(await childIds(alice, shared.id)).toEqual(sorted(ids.slice(3)));
    }, 60_000);

    test("an editor's batch spans two owners: each item lands in its own owner's trash", async () => {
      const theirs = await postFolder(alice, null, 'Team');
      const aliceItems = await Promise.all(Array.from({ length: 3 }, (_, i) => postFolder(alice, theirs, `t${i}`)));
      await shareWith(alice, theirs, bob.id, true);
      const bobsOwn = await Promise.all(Array.from({ length: 3 }, (_, i) => postFolder(bob, null, `own${i}`)));
      const ids = [aliceItems[0]!, bobsOwn[0]!, aliceItems[1]!, bobsOwn[1]!, aliceItems[2]!, bobsOwn[2]!].map((f) => f.id);
      const answer = await bob.browser.post('/api/file/batch/delete', { ids });
      expect(answer.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
      const trashIds = async (user: KeyedUser) =>
        sorted((await user.browser.get('/api/trash?limit=1000')).body.files.map((f: { id: string }) => f.id));
      expect(await trashIds(bob)).toEqual(expect.arrayContaining(sorted(bobsOwn.map((f) => f.id))));
      expect(await trashIds(alice)).toEqual(expect.arrayContaining(sorted(aliceItems.map((f) => f.id))));
      expect(
        (await alice.browser.get('/api/trash?limit=1000')).body.files.find((f: { id: string }) => f.id === aliceItems[0]!.id),
      ).toMatchObject({
        trashedBy: bob.id,
      });
      for (const user of [alice, bob]) expect((await space(h, user.id)).used).toBe(await storedBytes(h, user.id));
    }, 60_000);

    test('without a trash each item is deleted for good, its bytes freed', async () => {
      const carol = await keyedUser(h); // on the harness's app, without TRASH_RETENTION_DAYS
      const folder = await postFolder(carol, null, 'Gone');
      const file = await patternFile(folder.key, folder.id, 40_000, 9);
      await uploadFile(carol, file);
      const answer = await carol.browser.post('/api/file/batch/delete', { ids: [file.id, folder.id, crypto.randomUUID()] });
      expect(answer.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
      expect((await carol.browser.get('/api/file?depth=2')).body.files).toEqual([]);
      expect((await space(h, carol.id)).used).toBe(0);
      expect(await storedBytes(h, carol.id)).toBe(0);
    }, 60_000);

    /** The items.changed frames a socket got, and how many event frames in all. */
    const batchFrames = (socket: LiveClient, after: number) => {
      const frames = socket.messages.slice(after).filter((m: LiveMessage) => m.type === 'event');
      return { frames, changed: frames.filter((m) => m.event?.kind === 'items.changed').map((m) => m.event!) };
    };
    /** The frames' kinds but tree.changed, which the hub holds behind them and folds (LiveClient.treeSpan). */
    const kindsBut = (frames: LiveMessage[]) => frames.map((m) => m.event?.kind).filter((kind) => kind !== 'tree.changed');
    const treeVersion = async (user: typeof alice) =>
      (await user.browser.get('/api/file/tree-version')).body.treeVersion as number;
    const union = (events: Array<{ itemIds?: string[] }>) => sorted(events.flatMap((e) => e.itemIds ?? []));

    test(`${many.toLocaleString('en')} items moved in two calls reach a watching tab as one event per call; others hear only what they may see`, async () => {
      const carol = await keyedUser(h, app);
      const shared = await postFolder(alice, null, 'Shared source');
      const own = await postFolder(alice, null, 'Own source');
      const to = await postFolder(alice, null, 'Target');
      await shareWith(alice, shared, bob.id, false);
      // Written straight to the database: 10,000 through HTTP would take a minute.
      const seen = (await seedTree(h, alice.id, shared.id, [inShared])).ids;
      const unseen = (await seedTree(h, alice.id, own.id, [many - inShared])).ids;
      const sockets = await Promise.all([alice, bob, carol].map((user) => LiveClient.open(base, user.browser.cookie!)));
      const [a, b, c] = sockets as [LiveClient, LiveClient, LiveClient];
      const start = [a, b, c].map((socket) => socket.messages.length);

      const all = [...seen, ...unseen];
      const v0 = await treeVersion(alice);
      for (let i = 0; i < all.length; i += perCall) {
        const answer = await alice.browser.post('/api/file/batch/move', {
          parentId: to.id,
          items: all.slice(i, i + perCall).map(moveEntry),
        });
        expect(answer.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
      }
      await a.next(() => batchFrames(a, start[0]!).changed.length === 2);
      // A change carol hears of, made after the moves: what she would have heard of them came before it.
      const mark = await postFolder(carol, null, 'After');
      await c.event('item.created', mark.id);
      await b.next((m) => m.event?.kind === 'items.changed');

      // The owner also hears what the calls did to his tree version (docs/protocol.md "Tree
      // version"): one tree.changed per call, or one for both if the second came within the hold.
      const v1 = await treeVersion(alice);
      await a.untilTree(v1, start[0]!);
      expect(a.treeSpan(start[0]!)).toMatchObject({ since: v0, version: v1 });
      expect(a.treeSpan(start[0]!)!.frames).toBeLessThanOrEqual(2);
      const owner = batchFrames(a, start[0]!);
      expect(kindsBut(owner.frames)).toEqual(['items.changed', 'items.changed']);
      expect(owner.frames.at(-1)!.event!.kind).toBe('tree.changed');
      expect(owner.changed.length).toBe(2);
      expect(union(owner.changed)).toEqual(sorted(all));
      expect(owner.changed[0]!.parentIds).toEqual(sorted([shared.id, own.id, to.id]));
      expect(owner.changed[1]!.parentIds).toEqual(sorted([own.id, to.id]));
      // Bob sees the shared folder only: its items, and the folders they left and joined, as before.
      const viewer = batchFrames(b, start[1]!);
      expect(viewer.changed.length).toBe(1);
      expect(union(viewer.changed)).toEqual(sorted(seen));
      expect(viewer.changed[0]!.parentIds).toEqual(sorted([shared.id, to.id]));
      expect(batchFrames(c, start[2]!).changed).toEqual([]);
      expect(kindsBut(batchFrames(c, start[2]!).frames)).toEqual(['item.created']);

      // Deleted in two calls: per call one items.changed and one trash.changed; the tree.changed as above.
      const before = a.messages.length;
      for (let i = 0; i < all.length; i += perCall) {
        const answer = await alice.browser.post('/api/file/batch/delete', { ids: all.slice(i, i + perCall) });
        expect(answer.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
      }
      const v2 = await treeVersion(alice);
      await a.untilTree(v2, before);
      expect(a.treeSpan(before)).toMatchObject({ since: v1, version: v2 });
      await a.next(() => kindsBut(batchFrames(a, before).frames).length === 4);
      const deleted = batchFrames(a, before);
      expect(kindsBut(deleted.frames)).toEqual(['items.changed', 'trash.changed', 'items.changed', 'trash.changed']);
      expect(union(deleted.changed)).toEqual(sorted(all));
      expect(deleted.changed.map((e) => e.parentIds)).toEqual([[to.id], [to.id]]);
      // Bob no longer sees them (they left the shared folder): he hears nothing of the deletes.
      expect(batchFrames(b, start[1]!).changed.length).toBe(1);
      for (const socket of sockets) socket.close();
    }, 120_000);

    test('a malformed call changes nothing: none, repeats, too many, bad shapes, no session', async () => {
      const folder = await postFolder(alice, null, 'Kept');
      const before = await snapshot(h);
      const refused = [
        await alice.browser.post('/api/file/batch/delete', { ids: [] }),
        await alice.browser.post('/api/file/batch/delete', { ids: [folder.id, folder.id] }),
        await alice.browser.post('/api/file/batch/delete', { ids: Array.from({ length: BATCH_MAX + 1 }, () => folder.id) }),
        await alice.browser.post('/api/file/batch/delete', { ids: 'all' }),
        await alice.browser.post('/api/file/batch/move', { parentId: null, items: [{ id: folder.id }] }),
        await alice.browser.post('/api/file/batch/move', { items: [moveEntry(folder.id)] }),
      ];
      expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400]);
      expect((await anonymous(h).post('/api/file/batch/delete', { ids: [folder.id] })).status).toBe(401);
      expect(await snapshot(h)).toEqual(before);
      // A malformed id is that item's answer; the others go on.
      const mixed = await alice.browser.post('/api/file/batch/delete', { ids: ['nope', folder.id] });
      expect(mixed.body.results.map((r: { ok: boolean; error?: string }) => [r.ok, r.error])).toEqual([
        [false, 'VALIDATION'],
        [true, undefined],
      ]);
    }, 60_000);
  });
}
