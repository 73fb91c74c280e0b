import { beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES, newItemId } from '@sealbox/crypto';
import { b64, type FilesSuite } from './context.ts';
import {
  folderMeta,
  patternFile,
  postFolder,
  postUpload,
  sendPart,
  signedInUser,
  snapshot,
  space,
  uploadFile,
  type FilesHarness,
  type User,
} from './harness.ts';

/** Listings, and the changes that show in them: rename, move, delete (docs/protocol.md "Files and uploads"). */
export function listingTests(suite: FilesSuite) {
  let h: FilesHarness, alice: User;
  beforeAll(() => {
    ({ h, alice } = suite);
  });
  const { unchanged } = suite;

  describe('listing', () => {
    test('breadth first with depth, limit, offset and ancestors; files of state ready only', async () => {
      const user = await signedInUser(h);
      const a = await postFolder(user, null, 'a');
      const b = await postFolder(user, a, 'b');
      h.clock.advance(1);
      const c = await postFolder(user, b, 'c');
      h.clock.advance(1);
      const f1 = await patternFile(a.key, a.id, 10);
      await uploadFile(user, f1);
      h.clock.advance(1);
      const f2 = await patternFile(c.key, c.id, 20);
      await uploadFile(user, f2);
      h.clock.advance(1);
      const pending = await patternFile(a.key, a.id, PART_BYTES);
      expect((await postUpload(user.browser, pending.meta)).status).toBe(201);

      const ids = (body: { files: Array<{ id: string }> }) => body.files.map((f) => f.id);
      const top = await user.browser.get('/api/file');
      expect(ids(top.body)).toEqual([a.id]);
      const deep = await user.browser.get(`/api/file?id=${a.id}&depth=20`);
      expect(deep.body.root.id).toBe(a.id);
      expect(deep.body.root.children).toEqual([b.id, f1.id]);
      expect(ids(deep.body)).toEqual([b.id, f1.id, c.id, f2.id]);
      expect(deep.body.ancestors).toBeUndefined();
      expect(ids((await user.browser.get(`/api/file?id=${a.id}&depth=2`)).body)).toEqual([b.id, f1.id, c.id]);
      expect(ids((await user.browser.get(`/api/file?id=${a.id}&depth=20&limit=2&offset=1`)).body)).toEqual([f1.id, c.id]);
      expect(ids((await user.browser.get(`/api/file?depth=20&limit=2147483648`)).body)).toEqual([a.id, b.id, f1.id, c.id, f2.id]);
      // One level deep the database pages; root.children still names every child.
      const paged = await user.browser.get(`/api/file?id=${a.id}&limit=1&offset=1`);
      expect(ids(paged.body)).toEqual([f1.id]);
      expect(paged.body.root.children).toEqual([b.id, f1.id]);
      const firstPage = await user.browser.get(`/api/file?id=${a.id}&limit=1`);
      expect(ids(firstPage.body)).toEqual([b.id]);
      expect(firstPage.body.root.children).toEqual([b.id, f1.id]);
      expect(ids((await user.browser.get(`/api/file?id=${a.id}&offset=2`)).body)).toEqual([]);
      expect(ids((await user.browser.get(`/api/file?limit=1&offset=1`)).body)).toEqual([]);
      const withAncestors = await user.browser.get(`/api/file?id=${c.id}&includeAncestors=true`);
      expect(withAncestors.body.ancestors.map((i: { id: string }) => i.id)).toEqual([a.id, b.id]);
      expect(ids(withAncestors.body)).toEqual([f2.id]);
      expect(withAncestors.body.users).toEqual([{ id: user.id, username: expect.any(String), avatarExtension: null }]);
      // Asked for a file: the file is the root, nothing under it.
      const single = await user.browser.get(`/api/file?id=${f1.id}`);
      expect(single.status).toBe(200);
      expect(single.body.root.id).toBe(f1.id);
      expect(single.body.root.size).toBe(f1.cipher.byteLength);
      expect(single.body.files).toEqual([]);

      for (const query of [
        'depth=0',
        'depth=21',
        'limit=0',
        'limit=2147483649',
        'offset=-1',
        'depth=x',
        'includeAncestors=maybe',
        'id=nope',
      ]) {
        expect((await user.browser.get(`/api/file?${query}`)).status).toBe(400);
      }
    });
    test('a large folder stays right across changes (answers kept encoded between changes on SQLite)', async () => {
      const user = await signedInUser(h);
      const outer = await postFolder(user, null, 'outer');
      const big = await postFolder(user, outer, 'big');
      // About 500 bytes of JSON per item: well over the size from which answers are kept.
      const children = await Promise.all(Array.from({ length: 700 }, (_, i) => folderMeta(big.key, big.id, `child ${i}`)));
      for (const child of children) expect((await postUpload(user.browser, child.meta)).status).toBe(201);
      const url = `/api/file?id=${big.id}&depth=1&limit=2147483648&offset=0&includeAncestors=true`;
      const first = await user.browser.request('GET', url);
      const firstText = await first.text();
      expect(firstText.length).toBeGreaterThan(256 * 1024);
      const again = await user.browser.request('GET', url);
      expect(await again.text()).toBe(firstText);
      const uncached = await user.browser.request('GET', `/api/file?id=${big.id}&depth=2&limit=1`);
      for (const header of ['content-type', 'content-security-policy', 'cache-control', 'x-content-type-options']) {
        expect(again.headers.get(header)).toBe(first.headers.get(header));
        expect(again.headers.get(header)).toBe(uncached.headers.get(header));
      }
      // The same listing under another limit is made afresh: a kept answer must match it exactly.
      let asked = 0;
      const sameAsFresh = async () => {
        const kept = await (await user.browser.request('GET', url)).text();
        const fresh = await (
          await user.browser.request('GET', url.replace('limit=2147483648', `limit=${2147483000 + asked++}`))
        ).text();
        expect(kept).toBe(fresh);
        return JSON.parse(kept);
      };

      const added = await postFolder(user, big, 'added');
      expect((await sameAsFresh()).files.map((f: { id: string }) => f.id)).toContain(added.id);
      expect(
        (await user.browser.put(`/api/file/${children[0]!.id}`, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) }))
          .status,
      ).toBe(200);
      expect((await sameAsFresh()).files.find((f: { id: string }) => f.id === children[0]!.id).encryptedFileName).toBe(b64(30));
      const move = (id: string, parentId: string) =>
        user.browser.put(`/api/file/${id}`, { type: 'move', parentId, encryptedKey: b64(48), keyNonce: b64(12) });
      expect((await move(children[2]!.id, outer.id)).status).toBe(200);
      expect((await sameAsFresh()).root.children).not.toContain(children[2]!.id);
      expect((await move(children[2]!.id, big.id)).status).toBe(200);
      expect((await sameAsFresh()).root.children).toContain(children[2]!.id);
      const file = await patternFile(big.key, big.id, 100);
      await uploadFile(user, file);
      expect((await sameAsFresh()).files.find((f: { id: string }) => f.id === file.id).size).toBe(file.cipher.byteLength);
      expect(
        (await user.browser.put(`/api/file/${outer.id}`, { type: 'rename', encryptedName: b64(31), nameNonce: b64(12) })).status,
      ).toBe(200);
      expect((await sameAsFresh()).ancestors[0].encryptedFileName).toBe(b64(31));
      expect((await user.browser.delete(`/api/file/${children[1]!.id}`)).status).toBe(204);
      expect((await sameAsFresh()).files).toHaveLength(701);
      // The same folder asked for by someone else is not this user's answer.
      const other = await signedInUser(h);
      expect((await other.browser.get(url)).status).toBe(404);
      // Deleting an ancestor takes the folder with it.
      expect((await user.browser.delete(`/api/file/${outer.id}`)).status).toBe(204);
      expect((await user.browser.get(url)).status).toBe(404);
    }, 60_000);
  });

  describe('rename, move, delete', () => {
    test('rename replaces the sealed name', async () => {
      const folder = await postFolder(alice, null, 'old');
      const renamed = { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) };
      const answer = await alice.browser.put(`/api/file/${folder.id}`, renamed);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id: folder.id,
        encryptedFileName: renamed.encryptedName,
        nameNonce: renamed.nameNonce,
      });
      await unchanged(async () => {
        for (const body of [
          { ...renamed, nameNonce: b64(11) },
          { ...renamed, encryptedName: b64(16) },
          { ...renamed, encryptedName: b64(5000) },
          { ...renamed, encryptedName: 'not base64!' },
          { type: 'rename', encryptedName: renamed.encryptedName },
          { type: 'paint' },
        ]) {
          expect((await alice.browser.put(`/api/file/${folder.id}`, body)).status).toBe(400);
        }
      });
    });

    test('move rules: not into itself, a descendant, a file or the current parent; keys replaced', async () => {
      const a = await folderMeta(alice.rootKey, null, 'a');
      const b = await folderMeta(a.key, a.id, 'b');
      const c = await folderMeta(b.key, b.id, 'c');
      const d = await folderMeta(alice.rootKey, null, 'd');
      for (const f of [a, b, c, d]) expect((await postUpload(alice.browser, f.meta)).status).toBe(201);
      const file = await patternFile(d.key, d.id, 10);
      await uploadFile(alice, file);
      const move = (id: string, parentId: string | null) =>
        alice.browser.put(`/api/file/${id}`, { type: 'move', parentId, encryptedKey: b64(48), keyNonce: b64(12) });
      await unchanged(async () => {
        expect((await move(a.id, a.id)).status).toBe(400);
        expect((await move(a.id, b.id)).status).toBe(400);
        expect((await move(a.id, c.id)).status).toBe(400);
        expect((await move(a.id, file.id)).status).toBe(400);
        expect((await move(b.id, a.id)).status).toBe(400);
        expect((await move(a.id, null)).status).toBe(400);
        expect((await move(a.id, newItemId())).status).toBe(404);
        expect((await move(a.id, 'D0000000-0000-4000-8000-000000000000')).status).toBe(400);
        for (const bad of [
          { type: 'move', parentId: d.id, encryptedKey: b64(32), keyNonce: b64(12) },
          { type: 'move', parentId: d.id, encryptedKey: b64(48), keyNonce: b64(16) },
          { type: 'move', parentId: d.id, encryptedKey: b64(48) },
          { type: 'move', encryptedKey: b64(48), keyNonce: b64(12) },
          { type: 'move', parentId: 5, encryptedKey: b64(48), keyNonce: b64(12) },
        ]) {
          expect((await alice.browser.put(`/api/file/${a.id}`, bad)).status).toBe(400);
        }
      });
      h.delivered.length = 0;
      const moved = await alice.browser.put(`/api/file/${a.id}`, {
        type: 'move',
        parentId: d.id,
        encryptedKey: b64(48),
        keyNonce: b64(12),
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: a.id, parentId: d.id, encryptedKey: b64(48), keyNonce: b64(12) });
      await Bun.sleep(5);
      expect(h.delivered).toContainEqual({ kind: 'item.moved', itemId: a.id, parentId: null, userIds: [alice.id] });
      expect(h.delivered).toContainEqual({ kind: 'item.moved', itemId: a.id, parentId: d.id, userIds: [alice.id] });
      // Now d contains a: moving d under c (a descendant of d) is refused.
      expect((await move(d.id, c.id)).status).toBe(400);
      const toTop = await move(c.id, null);
      expect(toTop.status).toBe(200);
      expect(toTop.body.parentId).toBeNull();
    });

    test('a folder cannot be moved under the bottom of a deep chain of its own descendants', async () => {
      // Regression: the ancestor walk used to stop at a fixed depth, so a move past it closed a
      // cycle that no listing reached and whose delete never ended.
      const top = await postFolder(alice, null, 'top');
      let bottom = top;
      const chain = [top.id];
      for (let i = 0; i < 40; i++) {
        const next = await postFolder(alice, bottom, `level ${i}`);
        bottom = next;
        chain.push(next.id);
      }
      // The whole path, top first (one recursive query in the store, whatever the depth).
      const listed = await alice.browser.get(`/api/file?id=${bottom.id}&includeAncestors=true`);
      expect(listed.body.ancestors.map((a: { id: string }) => a.id)).toEqual(chain.slice(0, -1));
      await unchanged(async () => {
        const res = await alice.browser.put(`/api/file/${top.id}`, {
          type: 'move',
          parentId: bottom.id,
          encryptedKey: b64(48),
          keyNonce: b64(12),
        });
        expect(res.status).toBe(400);
      });
      expect((await alice.browser.delete(`/api/file/${top.id}`)).status).toBe(204);
    });

    test('deleting a folder removes everything under it and frees exactly its bytes', async () => {
      const user = await signedInUser(h);
      const keep = await patternFile(user.rootKey, null, 1234);
      await uploadFile(user, keep);
      const baseline = await snapshot(h);
      const top = await postFolder(user, null);
      const sub = await postFolder(user, top);
      const f1 = await patternFile(top.key, top.id, 5000);
      await uploadFile(user, f1);
      const f2 = await patternFile(sub.key, sub.id, PART_BYTES + 10, 2);
      await uploadFile(user, f2);
      // An unfinished upload inside goes too, with its parts and reservation.
      const pending = await patternFile(sub.key, sub.id, PART_BYTES + 20, 4);
      const { uploadId } = (await postUpload(user.browser, pending.meta)).body;
      expect((await sendPart(user.browser, uploadId, pending, 0)).status).toBe(204);
      const { used, reserved } = await space(h, user.id);
      expect(used).toBe(keep.cipher.byteLength + f1.cipher.byteLength + f2.cipher.byteLength + PART_BYTES);
      expect(reserved).toBe(pending.cipher.byteLength - PART_BYTES);

      h.delivered.length = 0;
      expect((await user.browser.delete(`/api/file/${top.id}`)).status).toBe(204);
      await Bun.sleep(5);
      expect(await snapshot(h)).toEqual(baseline);
      expect(await space(h, user.id)).toMatchObject({ used: keep.cipher.byteLength, reserved: 0 });
      expect(h.delivered).toContainEqual({ kind: 'item.deleted', itemId: top.id, parentId: null, userIds: [user.id] });
      expect(h.delivered).toContainEqual({ kind: 'quota.changed', userIds: [user.id] });
      for (const id of [top.id, sub.id, f1.id, f2.id]) expect((await user.browser.get(`/api/file?id=${id}`)).status).toBe(404);
      expect((await user.browser.get(`/api/upload/${uploadId}`)).status).toBe(404);
      expect((await user.browser.delete(`/api/file/${top.id}`)).status).toBe(404);
      // Deleting a single file.
      expect((await user.browser.delete(`/api/file/${keep.id}`)).status).toBe(204);
      expect(await space(h, user.id)).toMatchObject({ used: 0, reserved: 0 });
    });
  });
}
