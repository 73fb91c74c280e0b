import { beforeAll, describe, expect, test } from 'bun:test';
import { verifyGrant } from '@sealbox/crypto';
import { folderMeta, postFolder, postUpload, type FilesHarness, type Made } from '../files/harness.ts';
import { b64, ids, type SharingSuite } from './context.ts';
import { anonymous, grant, makeLink, shareWith, withLink, type KeyedUser } from './harness.ts';

/**
 * Sharing with users (docs/protocol.md "Sharing"): a share made, refused, switched between viewer
 * and editor, listed for the owner and revoked; the nearest grant decides the role.
 */
export function userShareTests(suite: SharingSuite) {
  let h: FilesHarness, alice: KeyedUser, bob: KeyedUser, carol: KeyedUser, G: Made;
  beforeAll(() => {
    ({ h, alice, bob, carol, G } = suite);
  });
  const { unchanged, delivered } = suite;

  describe('with users', () => {
    test('a share is created, announced to both, and listed for the recipient with a grant that verifies', async () => {
      const folder = await postFolder(alice, null, 'shared');
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
      const folder = await postFolder(alice, null);
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
      const folder = await postFolder(alice, null);
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
      const folder = await postFolder(alice, null);
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
      const folder = await postFolder(alice, null);
      await shareWith(alice, folder, bob.id, false);
      await shareWith(alice, folder, carol.id, true);
      await unchanged(async () => {
        expect(
          (await bob.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: carol.id } }))
            .status,
        ).toBe(403);
        expect(
          (await carol.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: G.id, userId: alice.id } })).status,
        ).toBe(404);
        expect(
          (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: G.id, userId: bob.id } })).status,
        ).toBe(404);
        expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id } })).status).toBe(
          400,
        );
        expect(
          (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: 'x' } })).status,
        ).toBe(400);
        expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: 'x' } })).status).toBe(400);
        expect(
          (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: 'A'.repeat(22) } })).status,
        ).toBe(404);
      });
      h.delivered.length = 0;
      expect(
        (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: bob.id } })).status,
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
        (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: folder.id, userId: bob.id } })).status,
      ).toBe(404);
    });

    test('the nearest grant counts: a viewer folder with an editor subfolder, and the reverse', async () => {
      const top = await postFolder(alice, null, 'top');
      const sub = await postFolder(alice, top, 'sub');
      const deep = await postFolder(alice, sub, 'deep');
      const other = await postFolder(alice, top, 'other');
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

    test("the owner's listing marks what is shared (a user or a live link); nobody else is told", async () => {
      const top = await postFolder(alice, null, 'marks');
      const byUser = await postFolder(alice, top, 'to bob');
      const byLink = await postFolder(alice, top, 'by link');
      const expiring = await postFolder(alice, top, 'link expired');
      const plain = await postFolder(alice, top, 'not shared');
      await shareWith(alice, byUser, bob.id, false);
      const links = [await makeLink(alice, byLink), await makeLink(alice, expiring, { expires: 60 })];
      const marks = async () => {
        const listing = await alice.browser.get(`/api/file?id=${top.id}`);
        expect(listing.status).toBe(200);
        return Object.fromEntries(
          (listing.body.files as Array<{ id: string; shared?: boolean }>).map((f) => [f.id, f.shared ?? false]),
        );
      };
      expect(await marks()).toEqual({ [byUser.id]: true, [byLink.id]: true, [expiring.id]: true, [plain.id]: false });
      // An expired link no longer counts.
      h.clock.advance(60 * 1000);
      try {
        expect((await marks())[expiring.id]).toBe(false);
      } finally {
        h.clock.advance(-60 * 1000);
      }
      // The recipient, and a link holder, see no mark on anything.
      const seen = await bob.browser.get(`/api/file?id=${byUser.id}&includeAncestors=true`);
      expect(JSON.stringify(seen.body)).not.toContain('"shared"');
      const linkId = await makeLink(alice, top);
      links.push(linkId);
      const visitor = await anonymous(h).get(withLink(`/api/file?id=${top.id}`, linkId));
      expect(visitor.status).toBe(200);
      expect(JSON.stringify(visitor.body)).not.toContain('"shared"');
      // Other tests count the links the sweep finds: these go.
      for (const id of links) {
        expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: id } })).status).toBe(204);
      }
    });
  });
}
