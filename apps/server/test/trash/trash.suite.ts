import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sweep } from '../../src/domain/files/index.ts';
import { ORIGINAL_FOLDER_GONE } from '../../src/domain/files/trash.ts';
import {
  download,
  openFilesHarness,
  patternFile,
  postFolder,
  space,
  storedBytes,
  uploadFile,
  type FilesHarness,
  type MakeFilesEnv,
} from '../files/harness.ts';
import { b64 } from '../sharing/context.ts';
import { anonymous, keyedUser, makeLink, shareWith, snapshot, type KeyedUser } from '../sharing/harness.ts';

const DAY = 24 * 60 * 60 * 1000;
const RETENTION = 30 * DAY;

/**
 * The trash (docs/protocol.md "Trash"), with TRASH_RETENTION_DAYS at 30: a delete hides the item
 * and its subtree from everyone at once and keeps its bytes counted; its owner lists, restores
 * (shares and links below work again) or deletes it for good; an editor's delete lands in the
 * owner's trash; the sweep empties what is older than the retention.
 */
export function trashSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`trash: ${name}`, () => {
    let h: FilesHarness;
    let app: FilesHarness['app'];
    let alice: KeyedUser;
    let bob: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      app = h.makeApp({ trashRetentionMs: RETENTION });
      [alice, bob] = [await keyedUser(h, app), await keyedUser(h, app)];
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    const listed = async (user: KeyedUser, id?: string) =>
      ((await user.browser.get(id ? `/api/file?id=${id}&depth=5` : '/api/file?depth=5')).body.files ?? []).map(
        (f: { id: string }) => f.id,
      );
    const trash = async (user: KeyedUser) => (await user.browser.get('/api/trash')).body;
    const owned = async (userId: string) =>
      (await h.db.kysely.selectFrom('items').select('id').where('owner_id', '=', userId).execute()).length;

    test('a delete moves the item and its subtree to the trash: hidden everywhere, bytes still counted', async () => {
      const trip = await postFolder(alice, null, 'Trip');
      const photos = await postFolder(alice, trip, 'Photos');
      const file = await patternFile(photos.key, photos.id, 50_000, 3);
      await uploadFile(alice, file);
      await shareWith(alice, photos, bob.id, false);
      const linkId = await makeLink(alice, photos);
      expect((await download(bob.browser, file.id)).status).toBe(200);
      const used = (await space(h, alice.id)).used;

      h.delivered.length = 0;
      expect((await alice.browser.delete(`/api/file/${trip.id}`)).status).toBe(204);
      expect(h.delivered.map((e) => e.kind)).toContain('item.deleted');
      expect(await listed(alice)).not.toContain(trip.id);
      expect((await alice.browser.get(`/api/file?id=${photos.id}`)).status).toBe(404);
      // Shares and links below stop working at once.
      expect((await download(bob.browser, file.id)).status).toBe(404);
      expect((await bob.browser.get('/api/shared')).body.files).toEqual([]);
      expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
      // Still stored and counted.
      expect((await space(h, alice.id)).used).toBe(used);
      expect(await storedBytes(h, alice.id)).toBe(used);

      const listedTrash = await trash(alice);
      expect(listedTrash.files.map((f: { id: string }) => f.id)).toEqual([trip.id]);
      expect(listedTrash.files[0]).toMatchObject({ id: trip.id, parentId: null, trashedAt: h.clock.now, trashedBy: alice.id });
      expect(listedTrash.nextOffset).toBeNull();
      expect(listedTrash.bytes).toBe(await storedBytes(h, alice.id));
      expect((await trash(bob)).files).toEqual([]);
      // Nobody else can restore it or delete it for good.
      expect((await bob.browser.post(`/api/trash/${trip.id}/restore`, {})).status).toBe(404);
      expect((await bob.browser.delete(`/api/trash/${trip.id}`)).status).toBe(404);

      // Restored: where it was, and what was shared below it works again.
      h.delivered.length = 0;
      const restored = await alice.browser.post(`/api/trash/${trip.id}/restore`, {});
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id: trip.id, parentId: null });
      expect(h.delivered.map((e) => e.kind)).toContain('item.created');
      expect(await listed(alice)).toContain(file.id);
      expect((await download(bob.browser, file.id)).status).toBe(200);
      expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(200);
      expect((await trash(alice)).files).toEqual([]);
      expect((await space(h, alice.id)).used).toBe(await storedBytes(h, alice.id));
      // Not in the trash any more: nothing to restore.
      expect((await alice.browser.post(`/api/trash/${trip.id}/restore`, {})).status).toBe(404);
    }, 60_000);

    test("an editor's delete in a shared folder lands in the owner's trash", async () => {
      const shared = await postFolder(alice, null, 'Shared');
      await shareWith(alice, shared, bob.id, true);
      const draft = await postFolder(bob, shared, 'Draft');
      expect((await bob.browser.delete(`/api/file/${draft.id}`)).status).toBe(204);
      expect((await listed(bob, shared.id)).includes(draft.id)).toBe(false);
      expect((await trash(bob)).files).toEqual([]);
      const owners = (await trash(alice)).files.find((f: { id: string }) => f.id === draft.id);
      expect(owners).toMatchObject({ parentId: shared.id, trashedBy: bob.id });
      expect((await alice.browser.post(`/api/trash/${draft.id}/restore`, {})).status).toBe(200);
      expect(await listed(bob, shared.id)).toContain(draft.id);
    }, 60_000);

    test('a restore whose folder is gone asks for the top level, re-wrapped; a refusal changes nothing', async () => {
      const box = await postFolder(alice, null, 'Box');
      const inside = await postFolder(alice, box, 'Inside');
      expect((await alice.browser.delete(`/api/file/${inside.id}`)).status).toBe(204);
      expect((await alice.browser.delete(`/api/file/${box.id}`)).status).toBe(204);
      const before = await snapshot(h);
      const refused = await alice.browser.post(`/api/trash/${inside.id}/restore`, {});
      expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 409, message: ORIGINAL_FOLDER_GONE });
      for (const to of [
        { encryptedKey: 'x', keyNonce: b64(12) },
        { encryptedKey: b64(48), keyNonce: b64(3) },
      ]) {
        expect((await alice.browser.post(`/api/trash/${inside.id}/restore`, { to })).status).toBe(400);
      }
      expect((await alice.browser.post(`/api/trash/${inside.id}/restore`, { to: {}, extra: 1 })).status).toBe(400);
      expect(await snapshot(h)).toEqual(before);
      const moved = await alice.browser.post(`/api/trash/${inside.id}/restore`, {
        to: { encryptedKey: b64(48), keyNonce: b64(12) },
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: inside.id, parentId: null });
      expect(await listed(alice)).toContain(inside.id);
    }, 60_000);

    test('deleted for good one by one, emptied, or by the sweep after the retention: bytes and blobs freed', async () => {
      const carol = await keyedUser(h, app);
      const a = await patternFile(carol.rootKey, null, 20_000, 4);
      const b = await patternFile(carol.rootKey, null, 30_000, 5);
      const folder = await postFolder(carol, null, 'Old');
      const c = await patternFile(folder.key, folder.id, 40_000, 6);
      for (const file of [a, b, c]) await uploadFile(carol, file);
      for (const id of [a.id, b.id, folder.id]) expect((await carol.browser.delete(`/api/file/${id}`)).status).toBe(204);
      expect(await owned(carol.id)).toBe(4);
      // Each stored byte once, though the folder's file sits inside a trashed item.
      expect((await trash(carol)).bytes).toBe(await storedBytes(h, carol.id));

      expect((await carol.browser.delete(`/api/trash/${a.id}`)).status).toBe(204);
      expect(await owned(carol.id)).toBe(3);
      expect((await space(h, carol.id)).used).toBe(await storedBytes(h, carol.id));

      h.clock.advance(RETENTION - DAY);
      expect((await sweep(h.files, { graceMs: 0 })).expiredTrash).toBe(0);
      const emptied = await carol.browser.delete('/api/trash');
      expect(emptied.body).toEqual({ emptied: 2 });
      expect(await owned(carol.id)).toBe(0);
      expect((await space(h, carol.id)).used).toBe(0);

      const d = await patternFile(carol.rootKey, null, 10_000, 7);
      await uploadFile(carol, d);
      const old = await postFolder(carol, null, 'Older');
      const e = await patternFile(old.key, old.id, 15_000, 8);
      await uploadFile(carol, e);
      for (const id of [d.id, old.id]) expect((await carol.browser.delete(`/api/file/${id}`)).status).toBe(204);
      expect((await space(h, carol.id)).used).toBe(await storedBytes(h, carol.id));
      h.clock.advance(RETENTION + 1);
      // Two instances' sweeps at once: each item goes once, the bytes are freed once.
      const withTrash = { ...h.files, trashRetentionMs: RETENTION };
      const [first, second] = await Promise.all([sweep(withTrash, { graceMs: 0 }), sweep(withTrash, { graceMs: 0 })]);
      expect(first.expiredTrash + second.expiredTrash).toBeGreaterThanOrEqual(2);
      expect(await owned(carol.id)).toBe(0);
      expect((await space(h, carol.id)).used).toBe(0);
      const named = await h.db.kysely.selectFrom('item_parts').select('blob_key').execute();
      const blobs: string[] = [];
      for await (const key of h.blobs.list('part-')) blobs.push(key);
      expect(blobs.sort()).toEqual(named.map((row) => row.blob_key).sort());
    }, 60_000);
  });
}
