import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES, toBase64, verifyGrant } from '@sealbox/crypto';
import { DEFAULT_RATE_LIMITS, UNLIMITED } from '../../src/domain/accounts/rate-limits.ts';
import { sweep } from '../../src/domain/files/index.ts';
import { Browser } from '../accounts/harness.ts';
import {
  download,
  fileMeta,
  folderMeta,
  openFilesHarness,
  partBytes,
  patternBytes,
  postUpload,
  putPart,
  seedTree,
  space,
  storedBytes,
  type Encrypted,
  type FilesHarness,
  type MakeFilesEnv,
  type Made,
} from '../files/harness.ts';
import { anonymous, create, grant, keyedUser, makeLink, shareWith, snapshot, withLink, type KeyedUser } from './harness.ts';
import { accessMatrix } from './access-matrix.ts';
import { linkedItemRules } from './linked-item.ts';

const HOUR = 60 * 60 * 1000;
const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));
const ids = (files: Array<{ id: string }>) => files.map((f) => f.id);
const partVia = (browser: Browser, uploadId: string, n: number, bytes: Uint8Array<ArrayBuffer>, linkId: string) =>
  browser.call('PUT', withLink(`/api/upload/${uploadId}/part/${n}`, linkId), {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
  });

/**
 * Sharing with users and by links (docs/protocol.md "Sharing", "Share links"), written once and
 * run against every database and blob store pair (SQLite + disk, PostgreSQL + S3).
 */
export function sharingSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`sharing: ${name}`, () => {
    let h: FilesHarness;
    let alice: KeyedUser;
    let bob: KeyedUser;
    let carol: KeyedUser;
    /** alice: F/{a/{file1}, file0}, G/, H (a file at the top). */
    let F: Made;
    let A: Made;
    let G: Made;
    let file0: Encrypted;
    let file1: Encrypted;
    let H: Encrypted;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      [alice, bob, carol] = [await keyedUser(h), await keyedUser(h), await keyedUser(h)];
      F = await folderMeta(alice.rootKey, null, 'F');
      await create(alice, F);
      A = await folderMeta(F.key, F.id, 'a');
      await create(alice, A);
      file0 = await fileMeta(F.key, F.id, patternBytes(1000, 1), 'file0');
      await create(alice, file0);
      file1 = await fileMeta(A.key, A.id, patternBytes(2000, 2), 'file1');
      await create(alice, file1);
      G = await folderMeta(alice.rootKey, null, 'G');
      await create(alice, G);
      H = await fileMeta(alice.rootKey, null, patternBytes(10, 3), 'H');
      await create(alice, H);
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    async function unchanged(fn: () => Promise<void>) {
      const before = await snapshot(h);
      await fn();
      expect(await snapshot(h)).toEqual(before);
    }

    const delivered = async (match: Record<string, unknown>) => {
      await Bun.sleep(5);
      return h.delivered.filter((e) =>
        Object.entries(match).every(
          ([k, v]) => JSON.stringify((e as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
        ),
      );
    };

    describe('with users', () => {
      test('a share is created, announced to both, and listed for the recipient with a grant that verifies', async () => {
        const folder = await folderMeta(alice.rootKey, null, 'shared');
        await create(alice, folder);
        h.delivered.length = 0;
        const body = { type: 'user', id: folder.id, userId: bob.id, edit: false, ...(await grant(alice, folder, bob.id, false)) };
        const created = await alice.browser.post('/api/share', body);
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          type: 'user',
          itemId: folder.id,
          userId: bob.id,
          editPermission: false,
          encryptedKey: body.encryptedKey,
          signature: body.signature,
          sharerId: alice.id,
          createdAt: h.clock.now,
        });
        expect(await delivered({ kind: 'share.created' })).toEqual([
          { kind: 'share.created', itemId: folder.id, userIds: [alice.id, bob.id] },
        ]);

        const shared = await bob.browser.get('/api/shared');
        expect(shared.status).toBe(200);
        const entry = shared.body.files.find((f: { id: string }) => f.id === folder.id);
        expect(entry).toMatchObject({
          id: folder.id,
          ownerId: alice.id,
          isDirectory: true,
          editPermission: false,
          grant: created.body,
        });
        expect(shared.body.users.map((u: { id: string }) => u.id)).toContain(alice.id);
        // The recipient checks the grant against the sharer's (pinned) signing key.
        await verifyGrant(
          alice.keys.signingPublicKey,
          { sharerId: alice.id, itemId: folder.id, recipientId: bob.id, encryptedKey: entry.grant.encryptedKey, edit: false },
          entry.grant.signature,
        );
        await expect(
          verifyGrant(
            alice.keys.signingPublicKey,
            { sharerId: alice.id, itemId: folder.id, recipientId: bob.id, encryptedKey: entry.grant.encryptedKey, edit: true },
            entry.grant.signature,
          ),
        ).rejects.toThrow();
        // Nothing shared with carol; bob's own top level is still only his.
        expect((await carol.browser.get('/api/shared')).body).toEqual({ files: [], users: [], nextOffset: null });
        expect(ids((await bob.browser.get('/api/file')).body.files)).not.toContain(folder.id);
      });

      test('bad input is 400 and changes nothing; missing things 404; not the owner 403; twice 409', async () => {
        const good = { type: 'user', id: G.id, userId: carol.id, edit: false, ...(await grant(alice, G, carol.id, false)) };
        await unchanged(async () => {
          const bad: Array<Record<string, unknown>> = [
            { ...good, id: 'not-a-uuid' },
            { ...good, id: G.id.toUpperCase() },
            { ...good, userId: 'x' },
            { ...good, encryptedKey: b64(48) },
            { ...good, encryptedKey: b64(513) },
            { ...good, encryptedKey: `${good.encryptedKey.slice(0, -2)}==` },
            { ...good, encryptedKey: 'A'.repeat(2000) },
            { ...good, signature: b64(63) },
            { ...good, signature: b64(65) },
            { ...good, signature: 'not base64!' },
            { ...good, edit: 'true' },
            { ...good, edit: 1 },
            { ...good, type: 'group' },
            { ...good, userId: alice.id },
            { id: G.id, userId: carol.id },
          ];
          for (const body of bad) {
            const answer = await alice.browser.post('/api/share', body);
            expect([answer.status, body]).toEqual([400, body]);
          }
          expect((await alice.browser.post('/api/share', { ...good, userId: crypto.randomUUID() })).status).toBe(404);
          expect((await alice.browser.post('/api/share', { ...good, id: crypto.randomUUID() })).status).toBe(404);
          // Bob cannot see G: 404. Nobody signed in: 401.
          expect((await bob.browser.post('/api/share', { ...good, userId: alice.id })).status).toBe(404);
          expect((await anonymous(h).post('/api/share', good)).status).toBe(401);
        });
        // A viewer sees the item but may not share it.
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        await shareWith(alice, folder, bob.id, true);
        await unchanged(async () => {
          const again = await bob.browser.post('/api/share', {
            type: 'user',
            id: folder.id,
            userId: carol.id,
            edit: false,
            ...(await grant(bob, folder, carol.id, false)),
          });
          expect(again.status).toBe(403);
          expect(again.body.message).toBe('You cannot share files you do not own');
          const twice = await alice.browser.post('/api/share', {
            type: 'user',
            id: folder.id,
            userId: bob.id,
            edit: false,
            ...(await grant(alice, folder, bob.id, false)),
          });
          expect(twice.status).toBe(409);
        });
      });

      test('switching viewer and editor needs a new signature; the role follows at once', async () => {
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        const entry = await shareWith(alice, folder, carol.id, false);
        const inside = await folderMeta(folder.key, folder.id);
        expect((await postUpload(carol.browser, inside.meta)).status).toBe(403);
        h.delivered.length = 0;
        const signature = await (await import('@sealbox/crypto')).signGrant(alice.keys.signingPrivateKey, {
          sharerId: alice.id,
          itemId: folder.id,
          recipientId: carol.id,
          encryptedKey: entry.encryptedKey,
          edit: true,
        });
        await unchanged(async () => {
          for (const body of [
            { type: 'user', fileId: folder.id, userId: carol.id, edit: true },
            { type: 'user', fileId: folder.id, userId: carol.id, edit: true, signature: b64(10) },
            { type: 'user', fileId: 'x', userId: carol.id, edit: true, signature },
            { type: 'user', fileId: folder.id, userId: carol.id, edit: 'yes', signature },
          ]) {
            expect((await alice.browser.put('/api/share', body)).status).toBe(400);
          }
          expect(
            (await alice.browser.put('/api/share', { type: 'user', fileId: folder.id, userId: bob.id, edit: true, signature }))
              .status,
          ).toBe(404);
          expect(
            (await carol.browser.put('/api/share', { type: 'user', fileId: folder.id, userId: carol.id, edit: true, signature }))
              .status,
          ).toBe(403);
          expect(
            (await bob.browser.put('/api/share', { type: 'user', fileId: folder.id, userId: carol.id, edit: true, signature }))
              .status,
          ).toBe(404);
        });
        const switched = await alice.browser.put('/api/share', {
          type: 'user',
          fileId: folder.id,
          userId: carol.id,
          edit: true,
          signature,
        });
        expect(switched.status).toBe(200);
        expect(switched.body).toMatchObject({ editPermission: true, signature, encryptedKey: entry.encryptedKey });
        expect(await delivered({ kind: 'share.changed' })).toEqual([
          { kind: 'share.changed', itemId: folder.id, userIds: [alice.id, carol.id] },
        ]);
        expect((await postUpload(carol.browser, inside.meta)).status).toBe(201);
        const listed = await carol.browser.get(`/api/file?id=${folder.id}`);
        expect(listed.body.root.editPermission).toBe(true);
        expect(listed.body.files[0]).toMatchObject({
          id: inside.id,
          ownerId: alice.id,
          uploaderId: carol.id,
          editPermission: true,
        });
      });

      test('the owner sees who has access, with their public keys; nobody else does', async () => {
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        await shareWith(alice, folder, bob.id, false);
        await shareWith(alice, folder, carol.id, true);
        const list = await alice.browser.get(`/api/shared/${folder.id}/users`);
        expect(list.status).toBe(200);
        expect(
          Object.fromEntries(
            list.body.access.map((a: { userId: string; editPermission: boolean }) => [a.userId, a.editPermission]),
          ),
        ).toEqual({
          [bob.id]: false,
          [carol.id]: true,
        });
        expect(list.body.users).toContainEqual({
          id: bob.id,
          username: bob.username,
          publicKey: bob.keys.publicKey,
          signingPublicKey: bob.keys.signingPublicKey,
          avatarExtension: null,
        });
        expect((await bob.browser.get(`/api/shared/${folder.id}/users`)).status).toBe(403);
        expect((await bob.browser.get(`/api/shared/${G.id}/users`)).status).toBe(404);
        expect((await alice.browser.get(`/api/shared/not-a-uuid/users`)).status).toBe(400);
        expect((await anonymous(h).get(`/api/shared/${folder.id}/users`)).status).toBe(401);
      });

      test('revoking: the owner revokes anyone, a recipient drops their own, others 404/403; announced', async () => {
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        await shareWith(alice, folder, bob.id, false);
        await shareWith(alice, folder, carol.id, true);
        await unchanged(async () => {
          expect(
            (await bob.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: carol.id } }))
              .status,
          ).toBe(403);
          expect(
            (await carol.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: G.id, userId: alice.id } }))
              .status,
          ).toBe(404);
          expect(
            (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: G.id, userId: bob.id } })).status,
          ).toBe(404);
          expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id } })).status).toBe(
            400,
          );
          expect(
            (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: 'x' } }))
              .status,
          ).toBe(400);
          expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: 'x' } })).status).toBe(400);
          expect(
            (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: 'A'.repeat(22) } })).status,
          ).toBe(404);
        });
        h.delivered.length = 0;
        expect(
          (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: bob.id } }))
            .status,
        ).toBe(204);
        expect(
          (await carol.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: carol.id } }))
            .status,
        ).toBe(204);
        expect(await delivered({ kind: 'share.deleted' })).toEqual([
          { kind: 'share.deleted', itemId: folder.id, userIds: [alice.id, bob.id] },
          { kind: 'share.deleted', itemId: folder.id, userIds: [alice.id, carol.id] },
        ]);
        // Unknown keys are ignored, as on every JSON call (only the known fields are read).
        for (const user of [bob, carol]) {
          expect(ids((await user.browser.get('/api/shared')).body.files)).not.toContain(folder.id);
          expect((await user.browser.get(`/api/file?id=${folder.id}`)).status).toBe(404);
        }
        expect(
          (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: bob.id } }))
            .status,
        ).toBe(404);
      });

      test('the nearest grant counts: a viewer folder with an editor subfolder, and the reverse', async () => {
        const top = await folderMeta(alice.rootKey, null, 'top');
        await create(alice, top);
        const sub = await folderMeta(top.key, top.id, 'sub');
        await create(alice, sub);
        const deep = await folderMeta(sub.key, sub.id, 'deep');
        await create(alice, deep);
        const other = await folderMeta(top.key, top.id, 'other');
        await create(alice, other);
        await shareWith(alice, top, carol.id, false);
        await shareWith(alice, sub, carol.id, true);
        const listing = await carol.browser.get(`/api/file?id=${top.id}&depth=3`);
        const roles = Object.fromEntries(
          listing.body.files.map((f: { id: string; editPermission: boolean }) => [f.id, f.editPermission]),
        );
        expect(roles).toEqual({ [sub.id]: true, [other.id]: false, [deep.id]: true });
        expect(listing.body.root.editPermission).toBe(false);
        // Depth 1 of sub, with its ancestors: carol sees up to top, each with its own role.
        const inSub = await carol.browser.get(`/api/file?id=${deep.id}&includeAncestors=true`);
        expect(inSub.body.ancestors.map((a: { id: string; editPermission: boolean }) => [a.id, a.editPermission])).toEqual([
          [top.id, false],
          [sub.id, true],
        ]);
        expect((await postUpload(carol.browser, (await folderMeta(deep.key, deep.id)).meta)).status).toBe(201);
        expect((await postUpload(carol.browser, (await folderMeta(other.key, other.id)).meta)).status).toBe(403);
        // Bob, with only sub shared as viewer, sees nothing above it.
        await shareWith(alice, sub, bob.id, false);
        const bobs = await bob.browser.get(`/api/file?id=${deep.id}&includeAncestors=true`);
        expect(bobs.body.ancestors.map((a: { id: string }) => a.id)).toEqual([sub.id]);
        expect((await bob.browser.get(`/api/file?id=${top.id}`)).status).toBe(404);
        // Reverse: an editor folder with a viewer subfolder.
        await shareWith(alice, top, bob.id, true);
        expect((await postUpload(bob.browser, (await folderMeta(other.key, other.id)).meta)).status).toBe(201);
        expect((await postUpload(bob.browser, (await folderMeta(deep.key, deep.id)).meta)).status).toBe(403);
      });

      test("an editor's uploads count on the owner's quota and name the editor as uploader", async () => {
        const folder = await folderMeta(alice.rootKey, null, 'team');
        await create(alice, folder);
        await shareWith(alice, folder, bob.id, true);
        const [aliceBefore, bobBefore] = [await space(h, alice.id), await space(h, bob.id)];
        const small = await fileMeta(folder.key, folder.id, patternBytes(5000, 9), 'small');
        await create(bob, small);
        const big = await fileMeta(folder.key, folder.id, patternBytes(PART_BYTES + 10, 8), 'big');
        const started = await postUpload(bob.browser, big.meta);
        expect(started.status).toBe(201);
        expect((await space(h, alice.id)).reserved).toBe(aliceBefore.reserved + big.cipher.byteLength);
        for (let n = 0; n < started.body.parts; n++)
          expect((await putPart(bob.browser, started.body.uploadId, n, partBytes(big.cipher, n))).status).toBe(204);
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
        const folder = await folderMeta(alice.rootKey, null, 'work');
        await create(alice, folder);
        const sub = await folderMeta(folder.key, folder.id, 'sub');
        await create(alice, sub);
        const doc = await fileMeta(folder.key, folder.id, patternBytes(100, 4), 'doc');
        await create(alice, doc);
        await shareWith(alice, folder, bob.id, true);
        const mine = await folderMeta(bob.rootKey, null, 'bobs');
        await create(bob, mine);
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
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        const inner = await folderMeta(folder.key, folder.id);
        await create(alice, inner);
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
        const folder = await folderMeta(alice.rootKey, null, 'large');
        await create(alice, folder);
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
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        await shareWith(alice, folder, carol.id, true);
        const big = await fileMeta(folder.key, folder.id, patternBytes(PART_BYTES + 7, 12));
        const started = await postUpload(carol.browser, big.meta);
        expect(started.status).toBe(201);
        expect((await putPart(carol.browser, started.body.uploadId, 0, partBytes(big.cipher, 0))).status).toBe(204);
        expect(
          (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: carol.id } }))
            .status,
        ).toBe(204);
        await unchanged(async () => {
          expect((await putPart(carol.browser, started.body.uploadId, 1, partBytes(big.cipher, 1))).status).toBe(404);
          expect((await carol.browser.post(`/api/upload/${started.body.uploadId}/complete`)).status).toBe(404);
          expect((await carol.browser.delete(`/api/upload/${started.body.uploadId}`)).status).toBe(404);
        });
        // The revocation freed the owner's bytes, the part already sent included.
        expect((await space(h, alice.id)).used).toBe(await storedBytes(h, alice.id));
      });

      test('hostile input: oversized bodies, fields and cookies, nested JSON; items in a folder being deleted', async () => {
        await unchanged(async () => {
          const huge = 'A'.repeat(2 * 1024 * 1024);
          expect(
            (
              await alice.browser.post('/api/share', {
                type: 'user',
                id: F.id,
                userId: bob.id,
                edit: false,
                encryptedKey: huge,
                signature: b64(64),
              })
            ).status,
          ).toBe(413);
          expect(
            (
              await alice.browser.post('/api/share', {
                type: 'user',
                id: F.id,
                userId: bob.id,
                edit: false,
                encryptedKey: 'A'.repeat(1028),
                signature: b64(64),
              })
            ).status,
          ).toBe(400);
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
        const folder = await folderMeta(alice.rootKey, null);
        await create(alice, folder);
        const inside = await folderMeta(folder.key, folder.id);
        await create(alice, inside);
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

    describe('links', () => {
      test('a viewer link lists the linked item and below, downloads, and nothing else', async () => {
        h.delivered.length = 0;
        const created = await alice.browser.post('/api/share', { type: 'link', id: F.id, expires: 0, edit: false });
        expect(created.status).toBe(201);
        const linkId = created.body.linkId as string;
        expect(linkId).toMatch(/^[A-Za-z0-9_-]{21}[AQgw]$/);
        expect(created.body).toEqual({
          linkId,
          itemId: F.id,
          editPermission: false,
          expiresAt: null,
          passwordProtected: false,
          createdAt: h.clock.now,
          modifiedAt: h.clock.now,
        });
        expect(await delivered({ kind: 'link.created' })).toEqual([{ kind: 'link.created', itemId: F.id, userIds: [alice.id] }]);
        const visitor = anonymous(h);
        const info = await visitor.get(`/api/shared/${linkId}`);
        expect(info.status).toBe(200);
        expect(info.body).toEqual({ ...created.body, isDirectory: true });
        // Without an id the link's item is listed.
        const listing = await visitor.get(withLink('/api/file', linkId));
        expect(listing.status).toBe(200);
        expect(listing.body.root).toMatchObject({ id: F.id, editPermission: false });
        expect(listing.body.root.children.sort()).toEqual([A.id, file0.id].sort());
        expect(ids(listing.body.files).sort()).toEqual([A.id, file0.id].sort());
        expect((await visitor.get(withLink('/api/file?includeAncestors=true', linkId))).body.ancestors).toEqual([]);
        const inA = await visitor.get(withLink(`/api/file?id=${file1.id}&includeAncestors=true`, linkId));
        expect(inA.body.ancestors.map((a: { id: string }) => a.id)).toEqual([F.id, A.id]);
        const got = await download(visitor, `${file1.id}?linkId=${linkId}`);
        expect(got.bytes).toEqual(file1.cipher);
        const ranged = await download(visitor, `${file1.id}?linkId=${linkId}`, 'bytes=10-19');
        expect([ranged.status, ranged.bytes]).toEqual([206, file1.cipher.subarray(10, 20)]);
        // Outside the linked item: 404, as for anything missing.
        for (const id of [G.id, H.id]) {
          expect((await visitor.get(withLink(`/api/file?id=${id}`, linkId))).status).toBe(404);
          expect((await download(visitor, `${id}?linkId=${linkId}`)).status).toBe(404);
        }
        // A signed-in user using the link acts with the link's permission, not their own.
        expect(
          (
            await alice.browser.put(withLink(`/api/file/${file0.id}`, linkId), {
              type: 'rename',
              encryptedName: b64(30),
              nameNonce: b64(12),
            })
          ).status,
        ).toBe(403);
        expect((await bob.browser.get(withLink(`/api/file?id=${file0.id}`, linkId))).status).toBe(200);
      });

      test('unknown, malformed and expired links answer alike (404) on every call', async () => {
        const linkId = await makeLink(alice, F, { expires: 3600 });
        const visitor = anonymous(h);
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(200);
        const info = (await visitor.get(`/api/shared/${linkId}`)).body;
        expect(info.expiresAt).toBe(h.clock.now + 3600 * 1000);
        h.clock.advance(3600 * 1000);
        try {
          for (const id of [linkId, 'A'.repeat(22), 'abc', `${'A'.repeat(21)}B`, crypto.randomUUID(), '%00', 'A'.repeat(64)]) {
            const answers = [
              await visitor.get(`/api/shared/${encodeURIComponent(id)}`),
              await visitor.post(`/api/shared/${encodeURIComponent(id)}`, { password: 'x' }),
              await visitor.get(withLink('/api/file', id)),
              await visitor.get(withLink(`/api/file?id=${F.id}`, id)),
              await download(visitor, `${file0.id}?linkId=${encodeURIComponent(id)}`),
            ];
            expect([id, answers.map((a) => a.status)]).toEqual([id, [404, 404, 404, 404, 404]]);
          }
          // The owner's list shows active links only.
          const links = (await alice.browser.get(`/api/shared/${F.id}/links`)).body;
          expect(links.map((l: { linkId: string }) => l.linkId)).not.toContain(linkId);
        } finally {
          h.clock.advance(-3600 * 1000);
        }
      });

      test('the sweep deletes expired links (with link.deleted for their sockets) and leaves the rest', async () => {
        const expiring = await makeLink(alice, F, { expires: 60 });
        const later = await makeLink(alice, F, { expires: 3600 });
        const forever = await makeLink(alice, F);
        const linkRow = (id: string) => h.db.kysely.selectFrom('links').select('id').where('id', '=', id).executeTakeFirst();
        // Not yet expired: the sweep takes nothing.
        expect((await sweep(h.files, { graceMs: 0 })).expiredLinks).toBe(0);
        h.clock.advance(60 * 1000);
        try {
          const seen = h.delivered.length;
          const [first, second] = await Promise.all([sweep(h.files, { graceMs: 0 }), sweep(h.files, { graceMs: 0 })]);
          // Two sweeps at once (two instances): the link goes once, one event.
          expect(first.expiredLinks + second.expiredLinks).toBe(1);
          expect(await linkRow(expiring)).toBeUndefined();
          expect(await linkRow(later)).toBeDefined();
          expect(await linkRow(forever)).toBeDefined();
          expect(h.delivered.slice(seen).filter((e) => e.kind === 'link.deleted')).toEqual([
            { kind: 'link.deleted', itemId: F.id, userIds: [alice.id], linkIds: [expiring] },
          ]);
          expect((await anonymous(h).get(`/api/shared/${expiring}`)).status).toBe(404);
          expect((await sweep(h.files, { graceMs: 0 })).expiredLinks).toBe(0);
        } finally {
          h.clock.advance(-60 * 1000);
        }
        for (const id of [later, forever]) {
          expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: id } })).status).toBe(204);
        }
      });

      test('a password link: 401 until proven, a proof for that link only, void when the password changes', async () => {
        const linkId = await makeLink(alice, F, { password: 'open sesame' });
        const other = await makeLink(alice, F, { password: 'open sesame' });
        const visitor = anonymous(h);
        const needed = await visitor.get(`/api/shared/${linkId}`);
        expect(needed.status).toBe(401);
        expect(needed.body.message).toBe('This link requires a password to access:');
        // Files calls without the proof: 404, like a missing link.
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(404);
        const wrong = await visitor.post(`/api/shared/${linkId}`, { password: 'open sesame!' });
        expect([wrong.status, wrong.body.message]).toEqual([401, 'Invalid password!']);
        for (const body of [{}, { password: '' }, { password: 5 }, { password: 'x'.repeat(1025) }, { pass: 'open sesame' }]) {
          expect((await visitor.post(`/api/shared/${linkId}`, body)).status).toBe(400);
        }
        const right = await visitor.post(`/api/shared/${linkId}`, { password: 'open sesame' });
        expect(right.status).toBe(200);
        expect(right.body).toMatchObject({ linkId, passwordProtected: true, isDirectory: true });
        const cookie = right.response.headers.get('set-cookie')!;
        expect(cookie).toMatch(new RegExp(`^sealbox_link_${linkId}=[^;]+; Path=/api; Max-Age=86400; HttpOnly; SameSite=Strict$`));
        expect((await visitor.get(`/api/shared/${linkId}`)).status).toBe(200);
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(200);
        // The proof is for that link alone, under its own name or another's.
        const proof = visitor.linkCookies.get(`sealbox_link_${linkId}`)!;
        expect((await visitor.get(withLink('/api/file', other))).status).toBe(404);
        const thief = anonymous(h);
        thief.linkCookies.set(`sealbox_link_${other}`, proof);
        expect((await thief.get(withLink('/api/file', other))).status).toBe(404);
        expect((await thief.get(`/api/shared/${other}`)).status).toBe(401);
        // Tampered or stretched proofs are nothing.
        const [epoch, expires, mac] = proof.split('.');
        for (const forged of [
          `${epoch}.${Number(expires) + 1000}.${mac}`,
          `${Number(epoch) + 1}.${expires}.${mac}`,
          `${epoch}.${expires}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'E' : 'A'}`,
          'x',
        ]) {
          thief.linkCookies.set(`sealbox_link_${linkId}`, forged!);
          expect((await thief.get(withLink('/api/file', linkId))).status).toBe(404);
        }
        // A day later the proof has lapsed.
        h.clock.advance(24 * HOUR);
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(404);
        h.clock.advance(-24 * HOUR);
        // The password changes: every proof made before is void.
        h.delivered.length = 0;
        const changed = await alice.browser.put('/api/share', { type: 'link', linkId, password: 'new one' });
        expect(changed.status).toBe(200);
        expect(changed.body).toMatchObject({ passwordProtected: true });
        expect(await delivered({ kind: 'link.password' })).toEqual([
          { kind: 'link.password', itemId: F.id, userIds: [alice.id], linkIds: [linkId] },
        ]);
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(404);
        expect((await visitor.post(`/api/shared/${linkId}`, { password: 'open sesame' })).status).toBe(401);
        expect((await visitor.post(`/api/shared/${linkId}`, { password: 'new one' })).status).toBe(200);
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(200);
        // Removed: no proof needed; set again (even to the same): the old proofs stay void.
        const removed = await alice.browser.put('/api/share', { type: 'link', linkId, password: null });
        expect(removed.body.passwordProtected).toBe(false);
        expect((await anonymous(h).get(withLink('/api/file', linkId))).status).toBe(200);
        expect((await alice.browser.put('/api/share', { type: 'link', linkId, password: 'new one' })).status).toBe(200);
        expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(404);
        // The hash is argon2id; the password itself is stored nowhere.
        const row = await h.db.kysely.selectFrom('links').selectAll().where('id', '=', linkId).executeTakeFirstOrThrow();
        expect(row.password_hash).toStartWith('$argon2id$');
        expect(JSON.stringify(await snapshot(h))).not.toContain('new one');
      });

      test('an editor link: anonymous visitors create, upload (whole and in parts), rename, move, delete inside', async () => {
        const folder = await folderMeta(alice.rootKey, null, 'dropbox');
        await create(alice, folder);
        const sub = await folderMeta(folder.key, folder.id, 'sub');
        await create(alice, sub);
        const linkId = await makeLink(alice, folder, { edit: true });
        const visitor = anonymous(h);
        const before = await space(h, alice.id);
        const made = await folderMeta(folder.key, folder.id, 'by visitor');
        expect((await postUpload(visitor, made.meta, undefined, withLink('/api/upload', linkId))).status).toBe(201);
        const small = await fileMeta(folder.key, folder.id, patternBytes(3000, 5));
        expect((await postUpload(visitor, small.meta, small.cipher, withLink('/api/upload', linkId))).status).toBe(201);
        const big = await fileMeta(folder.key, folder.id, patternBytes(PART_BYTES + 5, 6));
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
        const again = await fileMeta(folder.key, folder.id, patternBytes(PART_BYTES + 5, 7));
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
          const big = await fileMeta(folder.key, folder.id, patternBytes(PART_BYTES + 5, 8));
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

      test('link calls: bad input 400, only the owner manages links, deleting one ends it', async () => {
        const linkId = await makeLink(alice, F);
        await unchanged(async () => {
          for (const body of [
            { type: 'link', id: F.id, expires: -1, edit: false },
            { type: 'link', id: F.id, expires: 1.5, edit: false },
            { type: 'link', id: F.id, expires: 3_155_760_001, edit: false },
            { type: 'link', id: F.id, expires: 0 },
            { type: 'link', id: F.id, expires: 0, edit: false, password: '' },
            { type: 'link', id: F.id, expires: 0, edit: false, password: '   ' },
            { type: 'link', id: F.id, expires: 0, edit: false, password: 'x'.repeat(1025) },
            { type: 'link', id: 'nope', expires: 0, edit: false },
          ]) {
            expect([(await alice.browser.post('/api/share', body)).status, body]).toEqual([400, body]);
          }
          for (const body of [
            { type: 'link', linkId },
            { type: 'link', linkId: 'short', edit: true },
            { type: 'link', linkId, edit: 'no' },
            { type: 'link', linkId, password: '' },
            { type: 'link', linkId, password: 12 },
          ]) {
            expect([(await alice.browser.put('/api/share', body)).status, body]).toEqual([400, body]);
          }
          expect((await alice.browser.put('/api/share', { type: 'link', linkId: `${'B'.repeat(21)}A`, edit: true })).status).toBe(
            404,
          );
          expect((await bob.browser.post('/api/share', { type: 'link', id: G.id, expires: 0, edit: true })).status).toBe(404);
          expect((await bob.browser.put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(404);
          expect((await bob.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(404);
          expect((await bob.browser.get(`/api/shared/${F.id}/links`)).status).toBe(404);
          expect((await anonymous(h).put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(401);
        });
        const links = (await alice.browser.get(`/api/shared/${F.id}/links`)).body;
        expect(links.map((l: { linkId: string }) => l.linkId)).toContain(linkId);
        h.delivered.length = 0;
        expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(204);
        expect(await delivered({ kind: 'link.deleted' })).toEqual([
          { kind: 'link.deleted', itemId: F.id, userIds: [alice.id], linkIds: [linkId] },
        ]);
        expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
        expect((await anonymous(h).get(withLink('/api/file', linkId))).status).toBe(404);
        expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(404);
      });

      test('link ids are 128 random bits, never reused', async () => {
        const seen = new Set<string>();
        for (let i = 0; i < 20; i++) seen.add(await makeLink(alice, G));
        expect(seen.size).toBe(20);
        for (const id of seen) expect(Buffer.from(id, 'base64url')).toHaveLength(16);
      });

      test('password guessing hits 429 per link and address; the right password from elsewhere still works', async () => {
        const app = h.makeApp({
          rateLimits: {
            ...UNLIMITED,
            linkPasswordLinkIp: DEFAULT_RATE_LIMITS.linkPasswordLinkIp,
            linkPasswordIp: { max: 15, windowMs: HOUR },
          },
        });
        const linkId = await makeLink(alice, F, { password: 'hunter22' });
        const guesser = new Browser(app, { ip: '192.0.2.50' });
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++)
          statuses.push((await guesser.post(`/api/shared/${linkId}`, { password: `guess${i}` })).status);
        expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
        const refused = await guesser.post(`/api/shared/${linkId}`, { password: 'hunter22' });
        expect(refused.status).toBe(429);
        expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
        const visitor = new Browser(app, { ip: '192.0.2.99' });
        expect((await visitor.post(`/api/shared/${linkId}`, { password: 'hunter22' })).status).toBe(200);
        // One address trying many links is held by the per-address limit.
        const sprayer = new Browser(app, { ip: '192.0.2.77' });
        const sprayed: number[] = [];
        for (let i = 0; i < 16; i++)
          sprayed.push((await sprayer.post(`/api/shared/${'C'.repeat(21)}${'AQgw'[i % 4]}`, { password: 'x' })).status);
        expect(sprayed.slice(0, 15)).toEqual(Array(15).fill(404));
        expect(sprayed[15]).toBe(429);
      });
    });

    accessMatrix(() => ({ h, alice, bob, carol, unchanged }));
    linkedItemRules(() => ({ h, alice, unchanged }));
  });
}
