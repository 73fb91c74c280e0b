import { beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES } from '@sealbox/crypto';
import type { Browser } from '../accounts/harness.ts';
import {
  folderMeta,
  partBytes,
  patternFile,
  postFolder,
  postUpload,
  space,
  type FilesHarness,
  type Made,
} from '../files/harness.ts';
import { b64, ids, partVia, type SharingSuite } from './context.ts';
import { anonymous, create, makeLink, withLink, type KeyedUser } from './harness.ts';

/**
 * Editor links (docs/protocol.md "Share links", "Uploads by others"): what anonymous and
 * signed-in holders may do inside, and whose the uploads started through the link are.
 */
export function editorLinkTests(suite: SharingSuite) {
  let h: FilesHarness, alice: KeyedUser, carol: KeyedUser, G: Made;
  beforeAll(() => {
    ({ h, alice, carol, G } = suite);
  });
  const { unchanged, delivered } = suite;

  describe('links', () => {
    test('an editor link: anonymous visitors create, upload (whole and in parts), rename, move, delete inside', async () => {
      const folder = await postFolder(alice, null, 'dropbox');
      const sub = await postFolder(alice, folder, 'sub');
      const linkId = await makeLink(alice, folder, { edit: true });
      const visitor = anonymous(h);
      const before = await space(h, alice.id);
      const made = await folderMeta(folder.key, folder.id, 'by visitor');
      expect((await postUpload(visitor, made.meta, undefined, withLink('/api/upload', linkId))).status).toBe(201);
      const small = await patternFile(folder.key, folder.id, 3000, 5);
      expect((await postUpload(visitor, small.meta, small.cipher, withLink('/api/upload', linkId))).status).toBe(201);
      const big = await patternFile(folder.key, folder.id, PART_BYTES + 5, 6);
      const started = await postUpload(visitor, big.meta, undefined, withLink('/api/upload', linkId));
      expect(started.status).toBe(201);
      const { uploadId } = started.body;
      // Only through the same link: not without it, not by the owner, not by another link.
      const otherLink = await makeLink(alice, folder, { edit: true });
      expect((await visitor.get(`/api/upload/${uploadId}`)).status).toBe(401);
      expect((await alice.browser.get(`/api/upload/${uploadId}`)).status).toBe(404);
      expect((await visitor.get(withLink(`/api/upload/${uploadId}`, otherLink))).status).toBe(404);
      expect((await visitor.get(withLink(`/api/upload/${uploadId}`, linkId))).body).toMatchObject({ id: big.id, received: [] });
      for (let n = 0; n < started.body.parts; n++) {
        expect((await partVia(visitor, uploadId, n, partBytes(big.cipher, n), linkId)).status).toBe(204);
      }
      expect((await visitor.post(withLink(`/api/upload/${uploadId}/complete`, linkId))).status).toBe(200);
      const listing = (await alice.browser.get(`/api/file?id=${folder.id}`)).body;
      // An anonymous visitor is recorded as such (null), never as the owner who handed out the link.
      for (const f of listing.files.filter((f: { id: string }) => f.id !== sub.id))
        expect(f).toMatchObject({ ownerId: alice.id, uploaderId: null });
      expect((await space(h, alice.id)).used).toBe(before.used + small.cipher.byteLength + big.cipher.byteLength);
      const rename = { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) };
      expect((await visitor.put(withLink(`/api/file/${small.id}`, linkId), rename)).status).toBe(200);
      const move = (id: string, parentId: string | null) =>
        visitor.put(withLink(`/api/file/${id}`, linkId), { type: 'move', parentId, encryptedKey: b64(48), keyNonce: b64(12) });
      expect((await move(small.id, sub.id)).status).toBe(200);
      await unchanged(async () => {
        expect((await move(small.id, null)).status).toBe(403);
        expect((await move(small.id, G.id)).status).toBe(404);
        const top = await folderMeta(alice.rootKey, null);
        expect((await postUpload(visitor, top.meta, undefined, withLink('/api/upload', linkId))).status).toBe(403);
        const inG = await folderMeta(G.key, G.id);
        expect((await postUpload(visitor, inG.meta, undefined, withLink('/api/upload', linkId))).status).toBe(404);
      });
      expect((await visitor.delete(withLink(`/api/file/${big.id}`, linkId))).status).toBe(204);
      // A signed-in visitor is recorded as themselves.
      const byCarol = await folderMeta(folder.key, folder.id);
      expect((await postUpload(carol.browser, byCarol.meta, undefined, withLink('/api/upload', linkId))).status).toBe(201);
      const carols = (await alice.browser.get(`/api/file?id=${folder.id}`)).body.files.find(
        (f: { id: string }) => f.id === byCarol.id,
      );
      expect(carols.uploaderId).toBe(carol.id);
      // Switched to viewer: writes are 403 from then on; an upload already begun ended with the switch.
      const again = await patternFile(folder.key, folder.id, PART_BYTES + 5, 7);
      const second = (await postUpload(visitor, again.meta, undefined, withLink('/api/upload', linkId))).body;
      h.delivered.length = 0;
      const switched = await alice.browser.put('/api/share', { type: 'link', linkId, edit: false });
      expect(switched.body.editPermission).toBe(false);
      expect(await delivered({ kind: 'link.changed' })).toEqual([
        { kind: 'link.changed', itemId: folder.id, userIds: [alice.id], linkIds: [linkId] },
      ]);
      await unchanged(async () => {
        expect((await visitor.put(withLink(`/api/file/${small.id}`, linkId), rename)).status).toBe(403);
        expect((await partVia(visitor, second.uploadId, 0, partBytes(again.cipher, 0), linkId)).status).toBe(404);
        expect((await visitor.delete(withLink(`/api/file/${small.id}`, linkId))).status).toBe(403);
        expect((await visitor.delete(withLink(`/api/upload/${second.uploadId}`, linkId))).status).toBe(404);
      });
    });

    describe('uploads through an editor link stay with whoever started them', () => {
      let folder: Made;
      let linkId: string;
      let visitor: Browser;
      const via = (browser: Browser, method: 'GET' | 'POST' | 'DELETE', uploadId: string, suffix = '') =>
        browser.call(method, withLink(`/api/upload/${uploadId}${suffix}`, linkId));
      /** Status, a part, complete and abort of this upload, as `browser` through the link. */
      const everyCall = async (browser: Browser, uploadId: string, cipher: Uint8Array<ArrayBuffer>) => [
        (await via(browser, 'GET', uploadId)).status,
        (await partVia(browser, uploadId, 0, partBytes(cipher, 0), linkId)).status,
        (await via(browser, 'POST', uploadId, '/complete')).status,
        (await via(browser, 'DELETE', uploadId)).status,
      ];
      const startVia = async (browser: Browser) => {
        const big = await patternFile(folder.key, folder.id, PART_BYTES + 5, 8);
        const started = await postUpload(browser, big.meta, undefined, withLink('/api/upload', linkId));
        expect(started.status).toBe(201);
        return { big, uploadId: started.body.uploadId as string, parts: started.body.parts as number };
      };
      const anonymousFlag = async (uploadId: string) =>
        (await h.db.kysely.selectFrom('uploads').select('anonymous').where('id', '=', uploadId).executeTakeFirstOrThrow())
          .anonymous;
      const finish = async (browser: Browser, started: Awaited<ReturnType<typeof startVia>>) => {
        for (let n = 0; n < started.parts; n++) {
          expect((await partVia(browser, started.uploadId, n, partBytes(started.big.cipher, n), linkId)).status).toBe(204);
        }
        expect((await via(browser, 'POST', started.uploadId, '/complete')).status).toBe(200);
      };

      const listed = async (id: string) => ids((await alice.browser.get(`/api/file?id=${folder.id}`)).body.files).includes(id);

      beforeAll(async () => {
        folder = await folderMeta(alice.rootKey, null, 'drop');
        await create(alice, folder);
        linkId = await makeLink(alice, folder, { edit: true });
        visitor = anonymous(h);
      });

      test('an anonymous holder of the link cannot touch one a signed-in user started through it (404, as if unknown)', async () => {
        const carols = await startVia(carol.browser);
        expect(await anonymousFlag(carols.uploadId)).toBe(0);
        const unknown = crypto.randomUUID();
        await unchanged(async () => {
          expect(await everyCall(visitor, unknown, carols.big.cipher)).toEqual([404, 404, 404, 404]);
          expect(await everyCall(visitor, carols.uploadId, carols.big.cipher)).toEqual([404, 404, 404, 404]);
          // Nor the owner, signed in through the same link: the uploader is carol.
          expect(await everyCall(alice.browser, carols.uploadId, carols.big.cipher)).toEqual([404, 404, 404, 404]);
        });
        await finish(carol.browser, carols);
        expect(await listed(carols.big.id)).toBe(true);
      });

      test('a signed-in user (another, or the owner) cannot touch one an anonymous holder started; the holder finishes it', async () => {
        const visitors = await startVia(visitor);
        expect(await anonymousFlag(visitors.uploadId)).toBe(1);
        await unchanged(async () => {
          expect(await everyCall(carol.browser, visitors.uploadId, visitors.big.cipher)).toEqual([404, 404, 404, 404]);
          // Signed in through the link, the owner is not the anonymous visitor either.
          expect(await everyCall(alice.browser, visitors.uploadId, visitors.big.cipher)).toEqual([404, 404, 404, 404]);
          // Without the link the owner may end it (unfinished-uploads suite), never finish it.
          expect((await alice.browser.post(`/api/upload/${visitors.uploadId}/complete`)).status).toBe(404);
        });
        // Any anonymous holder of the link is the same principal: another address finishes it.
        await finish(anonymous(h, '198.51.100.8'), visitors);
        expect(await listed(visitors.big.id)).toBe(true);
      });

      test('rows an older build wrote (anonymous NULL) keep the rule from before', async () => {
        // As 0.3.0 writes them: a signed-in user's start is open to anonymous holders too.
        const carols = await startVia(carol.browser);
        const visitors = await startVia(visitor);
        await h.db.kysely
          .updateTable('uploads')
          .set({ anonymous: null })
          .where('id', 'in', [carols.uploadId, visitors.uploadId])
          .execute();
        expect((await via(visitor, 'GET', carols.uploadId)).status).toBe(200);
        expect((await via(carol.browser, 'GET', carols.uploadId)).status).toBe(200);
        expect((await via(alice.browser, 'GET', visitors.uploadId)).status).toBe(200);
        // Still never another signed-in user's, nor without the link.
        expect((await via(carol.browser, 'GET', visitors.uploadId)).status).toBe(404);
        expect((await alice.browser.get(`/api/upload/${carols.uploadId}`)).status).toBe(404);
        await finish(visitor, carols);
        await finish(visitor, visitors);
        expect([await listed(carols.big.id), await listed(visitors.big.id)]).toEqual([true, true]);
      });
    });
  });
}
