import { beforeAll, describe, expect, test } from 'bun:test';
import { CIPHER_CHUNK, PART_BYTES, ciphertextSize, newItemId } from '@sealbox/crypto';
import { b64, type FilesSuite } from './context.ts';
import {
  download,
  fileMeta,
  folderMeta,
  patternFile,
  postFolder,
  postUpload,
  putPart,
  sendPart,
  setQuota,
  signedInUser,
  snapshot,
  space,
  uploadFile,
  type Encrypted,
  type FilesHarness,
  type User,
} from './harness.ts';

/** What is refused, and that a refusal changes nothing: bad input, other users' items, quota and size limits. */
export function refusalTests(suite: FilesSuite) {
  let h: FilesHarness, alice: User, bob: User, big: Encrypted;
  beforeAll(() => {
    ({ h, alice, bob, big } = suite);
  });
  const { unchanged, invariant } = suite;

  describe('validation', () => {
    test('malformed, incomplete or ill-typed metadata is 400 and changes nothing', async () => {
      const folder = await folderMeta(alice.rootKey, null);
      const file = await patternFile(alice.rootKey, null, 100);
      const f = folder.meta;
      const m = file.meta;
      await unchanged(async () => {
        const bad: unknown[] = [
          'not json',
          '[]',
          'null',
          { ...f, id: folder.id.toUpperCase() },
          { ...f, id: '6ba7b810-9dad-11d1-80b4-00c04fd430c8' },
          { ...f, id: 'x' },
          { ...f, id: undefined },
          { ...f, parentId: undefined },
          { ...f, parentId: 'nope' },
          { ...f, isDirectory: 'true' },
          { ...f, isDirectory: undefined },
          { ...f, nameNonce: b64(16) },
          { ...f, nameNonce: undefined },
          { ...f, keyNonce: undefined },
          { ...f, encryptedKey: b64(32) },
          { ...f, encryptedKey: 'AAAA' + '=' },
          { ...f, encryptedFileName: b64(4097) },
          { ...f, encryptedFileName: b64(16) },
          { ...f, encryptedFileName: 42 },
          { ...f, fileNonce: b64(12) },
          { ...f, unknown: true },
          { ...m, fileNonce: undefined },
          { ...m, fileNonce: b64(11) },
          { ...m, encryptedMimeType: undefined },
          { ...m, size: 5 },
          { ...m, size: CIPHER_CHUNK + 8 },
          { ...m, size: -16 },
          { ...m, size: '100' },
          { ...m, size: 1.5 },
        ];
        for (const meta of bad) {
          const answer = await postUpload(
            alice.browser,
            meta,
            typeof meta === 'object' && meta && !(meta as { isDirectory?: unknown }).isDirectory ? file.cipher : undefined,
          );
          expect([answer.status, JSON.stringify(meta).slice(0, 80)]).toEqual([400, JSON.stringify(meta).slice(0, 80)]);
        }
        // Size that does not match the file; a folder with a file; no metadata at all.
        expect((await postUpload(alice.browser, { ...m, size: ciphertextSize(99) }, file.cipher)).status).toBe(400);
        expect((await postUpload(alice.browser, f, file.cipher)).status).toBe(400);
        const form = new FormData();
        form.append('file', new Blob([file.cipher]));
        expect((await alice.browser.call('POST', '/api/upload', { body: form })).status).toBe(400);
        // A multipart field the protocol does not name is refused too.
        const extra = new FormData();
        extra.append('metadata', JSON.stringify(f));
        extra.append('extra', 'y');
        expect((await alice.browser.call('POST', '/api/upload', { body: extra })).status).toBe(400);
        expect((await alice.browser.post('/api/upload', f)).status).toBe(400);
        // A file larger than one part must go up in parts; a body past one part is cut off.
        const tooBig = await patternFile(alice.rootKey, null, PART_BYTES);
        expect((await postUpload(alice.browser, tooBig.meta, tooBig.cipher)).status).toBe(400);
        const huge = new Uint8Array(PART_BYTES + 100 * 1024);
        expect((await postUpload(alice.browser, { ...tooBig.meta, size: undefined }, huge)).status).toBe(413);
        const { size: _s, ...noSize } = m;
        expect((await postUpload(alice.browser, noSize)).status).toBe(400);
      });
    });

    test('a whole file without size is 400 when its length is no ciphertext size (was 500)', async () => {
      const file = await patternFile(alice.rootKey, null, 10);
      const { size: _size, ...meta } = file.meta;
      await unchanged(async () => {
        // Empty, shorter than a tag, and one byte past a whole part: no plaintext encrypts to these.
        for (const length of [0, 1, 15, PART_BYTES + 1]) {
          const answer = await postUpload(alice.browser, meta, new Uint8Array(length));
          expect([length, answer.status, answer.body]).toEqual([
            length,
            400,
            { error: 'VALIDATION', message: "the file's length is not a size any plaintext encrypts to" },
          ]);
        }
      });
    });

    test('parents that are files or missing, and duplicate ids', async () => {
      const file = await patternFile(alice.rootKey, null, 100);
      await uploadFile(alice, file);
      await unchanged(async () => {
        const inFile = await folderMeta(file.key, file.id);
        expect((await postUpload(alice.browser, inFile.meta)).status).toBe(400);
        const nowhere = await folderMeta(alice.rootKey, newItemId());
        expect((await postUpload(alice.browser, nowhere.meta)).status).toBe(404);
        const dupFolder = await folderMeta(alice.rootKey, null);
        expect((await postUpload(alice.browser, { ...dupFolder.meta, id: file.id })).status).toBe(409);
        const dupFile = await patternFile(alice.rootKey, null, 50);
        expect((await postUpload(alice.browser, { ...dupFile.meta, id: file.id }, dupFile.cipher)).status).toBe(409);
        expect((await postUpload(alice.browser, { ...dupFile.meta, id: big.id, size: ciphertextSize(PART_BYTES) })).status).toBe(
          409,
        );
      });
    });

    test('malformed ids in paths are 400', async () => {
      await unchanged(async () => {
        for (const id of ['nope', big.id.toUpperCase(), '00000000-0000-0000-0000-000000000000']) {
          expect((await download(alice.browser, id)).status).toBe(400);
          expect(
            (await alice.browser.put(`/api/file/${id}`, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) })).status,
          ).toBe(400);
          expect((await alice.browser.delete(`/api/file/${id}`)).status).toBe(400);
          expect((await alice.browser.get(`/api/file?id=${id}`)).status).toBe(400);
          expect((await alice.browser.get(`/api/upload/${id}`)).status).toBe(400);
          expect((await putPart(alice.browser, id, 0, new Uint8Array(16))).status).toBe(400);
          expect((await alice.browser.post(`/api/upload/${id}/complete`)).status).toBe(400);
          expect((await alice.browser.delete(`/api/upload/${id}`)).status).toBe(400);
        }
      });
    });

    test('a folder has no data', async () => {
      const folder = await postFolder(alice, null);
      expect((await download(alice.browser, folder.id)).status).toBe(400);
    });
  });

  describe('who may see what', () => {
    test("another user's items and uploads answer 404 on every call, and nothing changes", async () => {
      const folder = await postFolder(alice, null);
      const pending = await patternFile(alice.rootKey, null, PART_BYTES + 1, 21);
      const { uploadId } = (await postUpload(alice.browser, pending.meta)).body;
      const mine = await postFolder(bob, null);
      await unchanged(async () => {
        for (const id of [folder.id, big.id]) {
          expect((await bob.browser.get(`/api/file?id=${id}`)).status).toBe(404);
          expect((await bob.browser.get(`/api/file?id=${id}&includeAncestors=true`)).status).toBe(404);
          expect((await download(bob.browser, id)).status).toBe(404);
          expect((await download(bob.browser, id, 'bytes=0-10')).status).toBe(404);
          expect(
            (await bob.browser.put(`/api/file/${id}`, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) })).status,
          ).toBe(404);
          expect(
            (
              await bob.browser.put(`/api/file/${id}`, {
                type: 'move',
                parentId: mine.id,
                encryptedKey: b64(48),
                keyNonce: b64(12),
              })
            ).status,
          ).toBe(404);
          expect(
            (
              await bob.browser.put(`/api/file/${id}`, {
                type: 'move',
                parentId: null,
                encryptedKey: b64(48),
                keyNonce: b64(12),
              })
            ).status,
          ).toBe(404);
          expect((await bob.browser.delete(`/api/file/${id}`)).status).toBe(404);
        }
        // Bob's own item into alice's folder: the target is not visible.
        expect(
          (
            await bob.browser.put(`/api/file/${mine.id}`, {
              type: 'move',
              parentId: folder.id,
              encryptedKey: b64(48),
              keyNonce: b64(12),
            })
          ).status,
        ).toBe(404);
        const intoAlice = await folderMeta(bob.rootKey, folder.id);
        expect((await postUpload(bob.browser, intoAlice.meta)).status).toBe(404);
        const fileIntoAlice = await patternFile(bob.rootKey, folder.id, 10);
        expect((await postUpload(bob.browser, fileIntoAlice.meta, fileIntoAlice.cipher)).status).toBe(404);
        expect((await bob.browser.get(`/api/upload/${uploadId}`)).status).toBe(404);
        expect((await sendPart(bob.browser, uploadId, pending, 0)).status).toBe(404);
        expect((await bob.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(404);
        expect((await bob.browser.delete(`/api/upload/${uploadId}`)).status).toBe(404);
        // Not even the owner sees an item still uploading through the item routes.
        expect((await alice.browser.get(`/api/file?id=${pending.id}`)).status).toBe(404);
        expect((await alice.browser.delete(`/api/file/${pending.id}`)).status).toBe(404);
        // Bob's listing has none of alice's items.
        const listing = await bob.browser.get('/api/file?depth=20');
        expect(listing.body.files.map((f: { id: string }) => f.id)).toEqual([mine.id]);
      });
      expect((await alice.browser.delete(`/api/upload/${uploadId}`)).status).toBe(204);
    });

    test('without a session every call is 401; an unknown linkId is 404', async () => {
      const anonymous = new (alice.browser.constructor as typeof import('./harness.ts').Browser)(h.app);
      const folder = await folderMeta(alice.rootKey, null);
      await unchanged(async () => {
        expect((await anonymous.get('/api/file')).status).toBe(401);
        expect((await download(anonymous, big.id)).status).toBe(401);
        expect((await postUpload(anonymous, folder.meta)).status).toBe(401);
        expect((await anonymous.delete(`/api/file/${big.id}`)).status).toBe(401);
        expect((await anonymous.get(`/api/file/data/${big.id}?linkId=abc`)).status).toBe(404);
        expect((await alice.browser.get(`/api/file?linkId=abc`)).status).toBe(404);
      });
    });
  });

  describe('quota and size limit', () => {
    test('402 before the transfer, for whole files and uploads; folders still fit', async () => {
      const user = await signedInUser(h);
      const small = await patternFile(user.rootKey, null, 1000);
      await setQuota(h, user.id, small.cipher.byteLength + 100);
      await uploadFile(user, small);
      await unchanged(async () => {
        const over = await patternFile(user.rootKey, null, 200);
        const whole = await postUpload(user.browser, over.meta, over.cipher);
        expect(whole.status).toBe(402);
        expect(whole.body).toEqual({ error: 'QUOTA_EXCEEDED', message: 'Not enough storage space' });
        expect((await postUpload(user.browser, { ...over.meta, size: ciphertextSize(PART_BYTES * 2) })).status).toBe(402);
      });
      await postFolder(user, null);
      const fits = await patternFile(user.rootKey, null, 100 - 16);
      expect(fits.cipher.byteLength).toBe(100);
      expect((await postUpload(user.browser, fits.meta, fits.cipher)).status).toBe(201);
      expect(await space(h, user.id)).toMatchObject({ used: small.cipher.byteLength + 100, reserved: 0 });
    });

    test('racing uploads never together pass the quota', async () => {
      const user = await signedInUser(h);
      const size = ciphertextSize(PART_BYTES * 3);
      await setQuota(h, user.id, size * 5 + size / 2);
      const metas = await Promise.all(Array.from({ length: 16 }, () => fileMeta(user.rootKey, null, new Uint8Array(1))));
      const answers = await Promise.all(metas.map((m) => postUpload(user.browser, { ...m.meta, size })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201).length).toBe(5);
      expect(statuses.filter((s) => s === 402).length).toBe(11);
      const { used, reserved, total } = await space(h, user.id);
      expect(used + reserved).toBe(size * 5);
      expect(used + reserved).toBeLessThanOrEqual(total);
      // Racing whole files too.
      await setQuota(h, user.id, size * 5 + 3 * 1016);
      const smalls = await Promise.all(Array.from({ length: 10 }, () => patternFile(user.rootKey, null, 1000)));
      const sent = await Promise.all(smalls.map((m) => postUpload(user.browser, m.meta, m.cipher)));
      expect(sent.filter((a) => a.status === 201).length).toBe(3);
      const after = await space(h, user.id);
      expect(after.used + after.reserved).toBe(size * 5 + 3 * 1016);
      expect((await snapshot(h)).blobs.length).toBe((await snapshot(h)).parts.length);
      for (const a of answers.filter((x) => x.status === 201)) {
        expect((await user.browser.delete(`/api/upload/${a.body.uploadId}`)).status).toBe(204);
      }
    });

    test('402 during the transfer when the quota shrank since the upload began', async () => {
      const user = await signedInUser(h);
      const file = await patternFile(user.rootKey, null, PART_BYTES + 50, 31);
      const { uploadId } = (await postUpload(user.browser, file.meta)).body;
      expect((await sendPart(user.browser, uploadId, file, 0)).status).toBe(204);
      await setQuota(h, user.id, PART_BYTES);
      await unchanged(async () => {
        expect((await sendPart(user.browser, uploadId, file, 1)).status).toBe(402);
      });
      await setQuota(h, user.id, PART_BYTES * 4);
      expect((await sendPart(user.browser, uploadId, file, 1)).status).toBe(204);
      expect((await user.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
      await invariant(user);
    });

    test('405 over MAX_FILE_BYTES, before and during the transfer', async () => {
      const limited = h.makeApp({ maxFileBytes: PART_BYTES });
      const user = await signedInUser(h, limited);
      await unchanged(async () => {
        const big2 = await fileMeta(user.rootKey, null, new Uint8Array(1));
        const answer = await postUpload(user.browser, { ...big2.meta, size: ciphertextSize(PART_BYTES + 1) });
        expect(answer.status).toBe(405);
        expect(answer.body).toEqual({ error: 'FILE_TOO_LARGE', message: 'File is too large' });
      });
      // Exactly the limit is allowed (it bounds the plaintext).
      expect(
        (
          await postUpload(user.browser, {
            ...(
              await fileMeta(user.rootKey, null, new Uint8Array(1))
            ).meta,
            size: ciphertextSize(PART_BYTES),
          })
        ).status,
      ).toBe(201);
      const tiny = h.makeApp({ maxFileBytes: 10 });
      const small = await signedInUser(h, tiny);
      const whole = await patternFile(small.rootKey, null, 11);
      await unchanged(async () => {
        expect((await postUpload(small.browser, whole.meta, whole.cipher)).status).toBe(405);
      });
      // An upload begun under a higher limit meets the lower one at its next part.
      const roomy = await patternFile(alice.rootKey, null, PART_BYTES + 99, 41);
      const { uploadId } = (await postUpload(alice.browser, roomy.meta)).body;
      const strict = new (alice.browser.constructor as typeof import('./harness.ts').Browser)(
        h.makeApp({ maxFileBytes: PART_BYTES }),
      );
      strict.cookie = alice.browser.cookie;
      await unchanged(async () => {
        expect((await sendPart(strict, uploadId, roomy, 0)).status).toBe(405);
      });
      expect((await alice.browser.delete(`/api/upload/${uploadId}`)).status).toBe(204);
    });
  });
}
