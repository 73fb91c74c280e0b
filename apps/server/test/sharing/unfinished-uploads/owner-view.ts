import { beforeAll, expect, test } from 'bun:test';
import { decryptName, unwrapItemKey } from '@sealbox/crypto';
import { postFolder, space, type FilesHarness } from '../../files/harness.ts';
import { anonymous, makeLink, shareWith, withLink, type KeyedUser } from '../harness.ts';
import { PART0, SIZE, type UnfinishedSuite } from './context.ts';

/**
 * The owner's view of what others left unfinished in their tree (docs/protocol.md "Uploads by
 * others"): the list, with the folders above each upload and the space they hold, and ending any.
 */
export function ownerViewTests(suite: UnfinishedSuite) {
  let h: FilesHarness, alice: KeyedUser, bob: KeyedUser, carol: KeyedUser;
  beforeAll(() => {
    ({ h, alice, bob, carol } = suite);
  });
  const { unchanged, folder, started, part0, uploadRow, listedIds, exactSpace } = suite;

  test('the owner sees every unfinished upload in their tree and the space it holds, whoever started it, and ends any', async () => {
    const drop = await folder();
    await shareWith(alice, drop, bob.id, true);
    const linkId = await makeLink(alice, drop, { edit: true });
    const visitor = anonymous(h);
    const before = await space(h, alice.id);
    h.delivered.length = 0;
    const byVisitor = await started(visitor, drop, linkId);
    // The owner hears of the reservation at once (her storage meter follows quota.changed).
    expect(h.delivered.filter((e) => e.kind === 'quota.changed')).toEqual([{ kind: 'quota.changed', userIds: [alice.id] }]);
    const byBob = await started(bob.browser, drop);
    const byCarol = await started(carol.browser, drop, linkId);
    const own = await started(alice.browser, drop);
    expect((await part0(bob.browser, byBob.uploadId)).status).toBe(204);

    const profile = (await alice.browser.get('/api/profile')).body;
    expect([profile.usedSpace, profile.reservedSpace]).toEqual([before.used + PART0, before.reserved + 4 * SIZE - PART0]);

    const list = (await alice.browser.get('/api/uploads')).body;
    expect(list.total).toBe(4);
    // Newest first; who started each, and through which link.
    expect(
      list.uploads.map((u: { uploadId: string; item: { uploaderId: string | null }; linkId: string | null }) => [
        u.uploadId,
        u.item.uploaderId,
        u.linkId,
      ]),
    ).toEqual([
      [own.uploadId, alice.id, null],
      [byCarol.uploadId, carol.id, linkId],
      [byBob.uploadId, bob.id, null],
      [byVisitor.uploadId, null, linkId],
    ]);
    expect(list.uploads[2]).toMatchObject({ received: PART0, item: { id: byBob.id, size: SIZE } });
    expect(list.uploads[3]).toMatchObject({ received: 0, item: { id: byVisitor.id, ownerId: alice.id, parentId: drop.id } });
    expect(list.users.map((u: { id: string }) => u.id).sort()).toEqual([alice.id, bob.id, carol.id].sort());
    // The folders above them come along, so the owner's keys open every name from her root down.
    expect(list.folders.map((f: { id: string }) => f.id)).toEqual([drop.id]);
    const dropKey = await unwrapItemKey(alice.rootKey, drop.id, list.folders[0].encryptedKey, list.folders[0].keyNonce);
    const item = list.uploads[3].item;
    const key = await unwrapItemKey(dropKey, item.id, item.encryptedKey, item.keyNonce);
    expect(await decryptName(key, item.id, item.encryptedFileName, item.nameNonce)).toBe('big.bin');

    // Nobody else lists them: the route is the caller's own tree, with a session.
    expect((await bob.browser.get('/api/uploads')).body).toEqual({ uploads: [], folders: [], users: [], total: 0 });
    expect((await visitor.get('/api/uploads')).status).toBe(401);
    expect((await visitor.get(withLink('/api/uploads', linkId))).status).toBe(401);
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'limit=many'])
      expect((await alice.browser.get(`/api/uploads?${query}`)).status).toBe(400);
    expect((await alice.browser.get('/api/uploads?limit=1&offset=1')).body.uploads[0].uploadId).toBe(byCarol.uploadId);

    await unchanged(async () => {
      // Only the uploader and the owner (signed in, not through a link) may end one.
      expect((await carol.browser.delete(`/api/upload/${byBob.uploadId}`)).status).toBe(404);
      expect((await bob.browser.delete(`/api/upload/${byVisitor.uploadId}`)).status).toBe(404);
      expect((await bob.browser.delete(`/api/upload/${own.uploadId}`)).status).toBe(404);
      expect((await visitor.delete(withLink(`/api/upload/${byBob.uploadId}`, linkId))).status).toBe(404);
      expect((await alice.browser.delete(withLink(`/api/upload/${byBob.uploadId}`, linkId))).status).toBe(404);
      expect((await alice.browser.delete(`/api/upload/${crypto.randomUUID()}`)).status).toBe(404);
      expect((await alice.browser.delete('/api/upload/not-an-id')).status).toBe(400);
      // The owner ends, never goes on with, another's upload.
      expect((await alice.browser.get(`/api/upload/${byBob.uploadId}`)).status).toBe(404);
      expect((await part0(alice.browser, byVisitor.uploadId)).status).toBe(404);
    });
    for (const upload of [byVisitor, byBob, byCarol]) {
      expect((await alice.browser.delete(`/api/upload/${upload.uploadId}`)).status).toBe(204);
      expect(await uploadRow(upload.uploadId)).toBeUndefined();
    }
    expect(await listedIds(alice)).toEqual([own.uploadId]);
    // Their starters are refused from then on.
    expect((await part0(visitor, byVisitor.uploadId, linkId)).status).toBe(404);
    expect((await part0(bob.browser, byBob.uploadId)).status).toBe(404);
    expect(await space(h, alice.id)).toMatchObject({ used: before.used, reserved: before.reserved + SIZE });
    await exactSpace();
    expect((await alice.browser.delete(`/api/upload/${own.uploadId}`)).status).toBe(204);
  });

  test('every folder above a listed upload comes along, each once; one under a folder being deleted is left out', async () => {
    const top = await folder('top');
    const mid = await postFolder(alice, top, 'mid');
    const low = await postFolder(alice, mid, 'low');
    const deep = await started(alice.browser, low);
    const beside = await started(alice.browser, mid);
    const doomed = await folder('doomed');
    const gone = await started(alice.browser, doomed);
    await h.db.kysely.updateTable('items').set({ deleting_since: h.clock.now }).where('id', '=', doomed.id).execute();
    try {
      const list = (await alice.browser.get('/api/uploads')).body;
      expect(list.uploads.map((u: { uploadId: string }) => u.uploadId)).toEqual([beside.uploadId, deep.uploadId]);
      expect(list.folders.map((f: { id: string }) => f.id).sort()).toEqual([top.id, mid.id, low.id].sort());
    } finally {
      await h.db.kysely.updateTable('items').set({ deleting_since: null }).where('id', '=', doomed.id).execute();
    }
    for (const { uploadId } of [deep, beside, gone])
      expect((await alice.browser.delete(`/api/upload/${uploadId}`)).status).toBe(204);
  });
}
