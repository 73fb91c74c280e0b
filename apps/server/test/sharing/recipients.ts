import { beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES } from '@sealbox/crypto';
import {
  download,
  patternFile,
  postFile,
  postFolder,
  postUpload,
  seedTree,
  sendPart,
  space,
  storedBytes,
  type FilesHarness,
  type Made,
} from '../files/harness.ts';
import { b64, ids, type SharingSuite } from './context.ts';
import { anonymous, makeLink, shareWith, withLink, type KeyedUser } from './harness.ts';

/**
 * What the recipients of a share do and what ending it takes away (docs/protocol.md "Sharing"):
 * editors' uploads and changes, deletes and revocations, hostile input, the shared list's pages.
 */
export function recipientTests(suite: SharingSuite) {
  let h: FilesHarness, alice: KeyedUser, bob: KeyedUser, carol: KeyedUser, F: Made, G: Made;
  beforeAll(() => {
    ({ h, alice, bob, carol, F, G } = suite);
  });
  const { unchanged, delivered } = suite;

  describe('with users', () => {
    test("an editor's uploads count on the owner's quota and name the editor as uploader", async () => {
      const folder = await postFolder(alice, null, 'team');
      await shareWith(alice, folder, bob.id, true);
      const [aliceBefore, bobBefore] = [await space(h, alice.id), await space(h, bob.id)];
      const small = await postFile(bob, folder, 5000, 9, 'small');
      const big = await patternFile(folder.key, folder.id, PART_BYTES + 10, 8, 'big');
      const started = await postUpload(bob.browser, big.meta);
      expect(started.status).toBe(201);
      expect((await space(h, alice.id)).reserved).toBe(aliceBefore.reserved + big.cipher.byteLength);
      for (let n = 0; n < started.body.parts; n++)
        expect((await sendPart(bob.browser, started.body.uploadId, big, n)).status).toBe(204);
      // Only the uploader may go on with it, not the owner.
      expect((await alice.browser.get(`/api/upload/${started.body.uploadId}`)).status).toBe(404);
      expect((await bob.browser.post(`/api/upload/${started.body.uploadId}/complete`)).status).toBe(200);
      const after = await space(h, alice.id);
      expect(after.used).toBe(aliceBefore.used + small.cipher.byteLength + big.cipher.byteLength);
      expect(after.reserved).toBe(aliceBefore.reserved);
      expect(after.used).toBe(await storedBytes(h, alice.id));
      expect(await space(h, bob.id)).toEqual(bobBefore);
      const listing = await alice.browser.get(`/api/file?id=${folder.id}`);
      for (const f of listing.body.files) expect(f).toMatchObject({ ownerId: alice.id, uploaderId: bob.id });
      expect(listing.body.users.map((u: { id: string }) => u.id).sort()).toEqual([alice.id, bob.id].sort());
      const got = await download(alice.browser, big.id);
      expect(got.bytes).toEqual(big.cipher);
    });

    test('editors rename, move within what they may edit, delete; never to the top, another owner or out of reach', async () => {
      const folder = await postFolder(alice, null, 'work');
      const sub = await postFolder(alice, folder, 'sub');
      const doc = await postFile(alice, folder, 100, 4, 'doc');
      await shareWith(alice, folder, bob.id, true);
      const mine = await postFolder(bob, null, 'bobs');
      const move = (parentId: string | null) =>
        bob.browser.put(`/api/file/${doc.id}`, { type: 'move', parentId, encryptedKey: b64(48), keyNonce: b64(12) });
      await unchanged(async () => {
        expect((await move(null)).status).toBe(403);
        expect((await move(mine.id)).status).toBe(403);
        expect((await move(G.id)).status).toBe(404);
      });
      h.delivered.length = 0;
      expect(
        (await bob.browser.put(`/api/file/${doc.id}`, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) })).status,
      ).toBe(200);
      expect((await move(sub.id)).status).toBe(200);
      // The events reach the editor too (audience: owner, uploader, access entries above).
      const renamed = await delivered({ kind: 'item.renamed' });
      expect(renamed[0]?.userIds.sort()).toEqual([alice.id, bob.id].sort());
      expect((await bob.browser.delete(`/api/file/${doc.id}`)).status).toBe(204);
      expect((await alice.browser.get(`/api/file?id=${sub.id}`)).body.files).toEqual([]);
    });

    test('deleting a shared item removes its entries and tells the recipients', async () => {
      const folder = await postFolder(alice, null);
      const inner = await postFolder(alice, folder);
      await shareWith(alice, inner, carol.id, false);
      const link = await makeLink(alice, inner);
      h.delivered.length = 0;
      expect((await alice.browser.delete(`/api/file/${folder.id}`)).status).toBe(204);
      expect(await delivered({ kind: 'share.deleted', itemId: inner.id })).toHaveLength(1);
      expect(await delivered({ kind: 'link.deleted', itemId: inner.id })).toEqual([
        { kind: 'link.deleted', itemId: inner.id, userIds: [alice.id], linkIds: [link] },
      ]);
      expect(ids((await carol.browser.get('/api/shared')).body.files)).not.toContain(inner.id);
      const k = h.db.kysely;
      expect(await k.selectFrom('accesses').selectAll().where('item_id', '=', inner.id).execute()).toEqual([]);
      expect(await k.selectFrom('links').selectAll().where('id', '=', link).execute()).toEqual([]);
    });

    test('a revoked user loses a large folder at once, even one whose listing was kept', async () => {
      const folder = await postFolder(alice, null, 'large');
      await seedTree(h, alice.id, folder.id, [600]);
      await shareWith(alice, folder, carol.id, false);
      const query = `/api/file?id=${folder.id}&includeAncestors=true&limit=2147483648`;
      const first = await carol.browser.get(query);
      expect(first.body.files).toHaveLength(600);
      expect((await carol.browser.get(query)).body).toEqual(first.body);
      expect(
        (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: carol.id } }))
          .status,
      ).toBe(204);
      expect((await carol.browser.get(query)).status).toBe(404);
      // Shared again as editor: the kept answer does not come back with the old role.
      await shareWith(alice, folder, carol.id, true);
      const again = await carol.browser.get(query);
      expect(again.body.root.editPermission).toBe(true);
      expect(again.body.files.every((f: { editPermission: boolean }) => f.editPermission)).toBe(true);
    });

    test('a revoked editor cannot go on with an upload begun before, nor complete it: it ended with the access', async () => {
      const folder = await postFolder(alice, null);
      await shareWith(alice, folder, carol.id, true);
      const big = await patternFile(folder.key, folder.id, PART_BYTES + 7, 12);
      const started = await postUpload(carol.browser, big.meta);
      expect(started.status).toBe(201);
      expect((await sendPart(carol.browser, started.body.uploadId, big, 0)).status).toBe(204);
      expect(
        (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: carol.id } }))
          .status,
      ).toBe(204);
      await unchanged(async () => {
        expect((await sendPart(carol.browser, started.body.uploadId, big, 1)).status).toBe(404);
        expect((await carol.browser.post(`/api/upload/${started.body.uploadId}/complete`)).status).toBe(404);
        expect((await carol.browser.delete(`/api/upload/${started.body.uploadId}`)).status).toBe(404);
      });
      // The revocation freed the owner's bytes, the part already sent included.
      expect((await space(h, alice.id)).used).toBe(await storedBytes(h, alice.id));
    });

    test('hostile input: oversized bodies, fields and cookies, nested JSON; items in a folder being deleted', async () => {
      await unchanged(async () => {
        // Too big for the body limit (413), then only too big for the key field (400).
        const shareKeyStatus = async (encryptedKey: string) =>
          (
            await alice.browser.post('/api/share', {
              type: 'user',
              id: F.id,
              userId: bob.id,
              edit: false,
              encryptedKey,
              signature: b64(64),
            })
          ).status;
        expect(await shareKeyStatus('A'.repeat(2 * 1024 * 1024))).toBe(413);
        expect(await shareKeyStatus('A'.repeat(1028))).toBe(400);
        expect(
          (
            await alice.browser.post('/api/share', {
              type: 'link',
              id: F.id,
              expires: 0,
              edit: false,
              password: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } },
            })
          ).status,
        ).toBe(400);
        expect((await anonymous(h).post(`/api/shared/${'A'.repeat(22)}`, { password: 'x'.repeat(100_000) })).status).toBe(400);
        const visitor = anonymous(h);
        const linkId = await makeLink(alice, G, { password: 'pw' }).then(async (id) => {
          await h.db.kysely.deleteFrom('links').where('id', '=', id).execute();
          return id;
        });
        visitor.linkCookies.set(`sealbox_link_${linkId}`, 'x'.repeat(4000));
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(404);
      });
      // A folder being deleted hides its shares and links at once, before its rows go.
      const folder = await postFolder(alice, null);
      const inside = await postFolder(alice, folder);
      await shareWith(alice, inside, carol.id, false);
      const linkId = await makeLink(alice, inside);
      await h.db.kysely.updateTable('items').set({ deleting_since: h.clock.now }).where('id', '=', folder.id).execute();
      try {
        expect(ids((await carol.browser.get('/api/shared')).body.files)).not.toContain(inside.id);
        expect((await carol.browser.get(`/api/file?id=${inside.id}`)).status).toBe(404);
        expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
        expect((await anonymous(h).get(withLink('/api/file', linkId))).status).toBe(404);
      } finally {
        await h.db.kysely.updateTable('items').set({ deleting_since: null }).where('id', '=', folder.id).execute();
      }
    });

    test('GET /api/shared pages and validates', async () => {
      const all = (await bob.browser.get('/api/shared')).body.files;
      expect(all.length).toBeGreaterThan(1);
      expect(ids((await bob.browser.get('/api/shared?limit=1&offset=1')).body.files)).toEqual([all[1].id]);
      for (const q of ['limit=0', 'limit=10001', 'offset=-1', 'limit=x'])
        expect((await bob.browser.get(`/api/shared?${q}`)).status).toBe(400);
      expect((await anonymous(h).get('/api/shared')).status).toBe(401);
    });
  });
}
