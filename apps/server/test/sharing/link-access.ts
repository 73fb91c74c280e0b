import { beforeAll, describe, expect, test } from 'bun:test';
import { EXPIRED_LINK_KEPT_MS, type LinkView } from '@sealbox/rules';
import { sweep } from '../../src/domain/files/index.ts';
import { download, type Encrypted, type FilesHarness, type Made } from '../files/harness.ts';
import { b64, HOUR, ids, type SharingSuite } from './context.ts';
import { anonymous, makeLink, snapshot, withLink, type KeyedUser } from './harness.ts';

/**
 * Opening share links (docs/protocol.md "Share links"): what a viewer link reaches, links that
 * answer as missing, the sweep of expired ones, and the password gate with its proofs.
 */
export function linkAccessTests(suite: SharingSuite) {
  let h: FilesHarness,
    alice: KeyedUser,
    bob: KeyedUser,
    F: Made,
    A: Made,
    G: Made,
    file0: Encrypted,
    file1: Encrypted,
    H: Encrypted;
  beforeAll(() => {
    ({ h, alice, bob, F, A, G, file0, file1, H } = suite);
  });
  const { delivered } = suite;

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
        expired: false,
      });
      expect(await delivered({ kind: 'link.created' })).toEqual([{ kind: 'link.created', itemId: F.id, userIds: [alice.id] }]);
      const visitor = anonymous(h);
      const info = await visitor.get(`/api/shared/${linkId}`);
      expect(info.status).toBe(200);
      // The visitor is told who shared it, by username (the owner's; unverifiable by an anonymous visitor).
      expect(info.body).toEqual({ ...created.body, isDirectory: true, sharedBy: alice.username });
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
        // The owner still sees it, marked expired, to renew or delete.
        const links = (await alice.browser.get(`/api/shared/${F.id}/links`)).body as LinkView[];
        expect(links.find((l) => l.linkId === linkId)).toMatchObject({ expired: true });
        expect(links.filter((l) => l.linkId !== linkId).every((l) => !l.expired)).toBe(true);
      } finally {
        h.clock.advance(-3600 * 1000);
      }
    });

    test('the sweep ends an expired link (link.expired), keeps it listed, and removes it 30 days on', async () => {
      const expiring = await makeLink(alice, F, { expires: 60 });
      const later = await makeLink(alice, F, { expires: 3600 });
      const forever = await makeLink(alice, F);
      const linkRow = (id: string) =>
        h.db.kysely.selectFrom('links').select(['id', 'ended_at']).where('id', '=', id).executeTakeFirst();
      const listed = async () => (await alice.browser.get(`/api/shared/${F.id}/links`)).body as LinkView[];
      // Not yet expired: the sweep takes nothing.
      expect(await sweep(h.files, { graceMs: 0 })).toMatchObject({ expiredLinks: 0, removedLinks: 0 });
      h.clock.advance(60 * 1000);
      try {
        const seen = h.delivered.length;
        const [first, second] = await Promise.all([sweep(h.files, { graceMs: 0 }), sweep(h.files, { graceMs: 0 })]);
        // Two sweeps at once (two instances): the link ends once, one event; nothing is removed yet.
        expect(first.expiredLinks + second.expiredLinks).toBe(1);
        expect(first.removedLinks + second.removedLinks).toBe(0);
        expect(Number((await linkRow(expiring))?.ended_at)).toBe(h.clock.now);
        expect((await linkRow(later))?.ended_at ?? null).toBeNull();
        expect(h.delivered.slice(seen).filter((e) => e.kind.startsWith('link.'))).toEqual([
          { kind: 'link.expired', itemId: F.id, userIds: [alice.id], linkIds: [expiring] },
        ]);
        expect((await anonymous(h).get(`/api/shared/${expiring}`)).status).toBe(404);
        expect((await listed()).find((l) => l.linkId === expiring)).toMatchObject({ expired: true });
        expect(await sweep(h.files, { graceMs: 0 })).toMatchObject({ expiredLinks: 0, removedLinks: 0 });
        // A day short of the 30: still kept. Then it goes, with link.deleted.
        h.clock.advance(EXPIRED_LINK_KEPT_MS - 1);
        expect(await sweep(h.files, { graceMs: 0 })).toMatchObject({ removedLinks: 0 });
        h.clock.advance(1);
        const before = h.delivered.length;
        expect(await sweep(h.files, { graceMs: 0 })).toMatchObject({ removedLinks: 1 });
        expect(await linkRow(expiring)).toBeUndefined();
        expect(h.delivered.slice(before).filter((e) => e.kind === 'link.deleted')).toEqual([
          { kind: 'link.deleted', itemId: F.id, userIds: [alice.id], linkIds: [expiring] },
        ]);
        expect(await linkRow(forever)).toBeDefined();
      } finally {
        h.clock.advance(-60 * 1000 - EXPIRED_LINK_KEPT_MS);
      }
      for (const id of [later, forever]) {
        expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: id } })).status).toBe(204);
      }
    });

    test('renew: a new expiry opens an expired link again; hostile values and other users change nothing', async () => {
      const linkId = await makeLink(alice, F, { expires: 60 });
      const renew = (who: typeof alice, expires: unknown, id = linkId) =>
        who.browser.call('PUT', '/api/share', { json: { type: 'link', linkId: id, expires } });
      h.clock.advance(61 * 1000);
      try {
        await sweep(h.files, { graceMs: 0 });
        expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
        for (const bad of [-1, 1.5, 'soon', null, {}, 3_155_760_001, 2 ** 60]) {
          expect([bad, (await renew(alice, bad)).status]).toEqual([bad, 400]);
        }
        expect((await renew(bob, 3600)).status).toBe(404);
        expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
        const seen = h.delivered.length;
        const renewed = await renew(alice, 3600);
        expect(renewed.status).toBe(200);
        expect(renewed.body).toMatchObject({ linkId, expired: false, expiresAt: h.clock.now + 3600 * 1000 });
        expect(h.delivered.slice(seen).map((e) => e.kind)).toEqual(['link.changed']);
        expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(200);
        // Renewed, it is not ended: when it expires again, the sweep ends it again.
        h.clock.advance(3600 * 1000);
        expect((await sweep(h.files, { graceMs: 0 })).expiredLinks).toBeGreaterThanOrEqual(1);
        // Never: 0.
        expect((await renew(alice, 0)).body).toMatchObject({ expiresAt: null, expired: false });
        expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(200);
      } finally {
        h.clock.advance(-61 * 1000 - 3600 * 1000);
      }
      expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(204);
    });

    test('a password link: 401 until proven, a proof for that link only, void when the password changes', async () => {
      const linkId = await makeLink(alice, F, { password: 'open sesame' });
      const other = await makeLink(alice, F, { password: 'open sesame' });
      const visitor = anonymous(h);
      const needed = await visitor.get(`/api/shared/${linkId}`);
      expect(needed.status).toBe(401);
      expect(needed.body.message).toBe('This link requires a password to access:');
      // Who shared it is told only past the password.
      expect(JSON.stringify(needed.body)).not.toContain(alice.username);
      // Files calls without the proof: 404, like a missing link.
      expect((await visitor.get(withLink('/api/file', linkId))).status).toBe(404);
      const wrong = await visitor.post(`/api/shared/${linkId}`, { password: 'open sesame!' });
      expect([wrong.status, wrong.body.message]).toEqual([401, 'Invalid password!']);
      for (const body of [{}, { password: '' }, { password: 5 }, { password: 'x'.repeat(1025) }, { pass: 'open sesame' }]) {
        expect((await visitor.post(`/api/shared/${linkId}`, body)).status).toBe(400);
      }
      const right = await visitor.post(`/api/shared/${linkId}`, { password: 'open sesame' });
      expect(right.status).toBe(200);
      expect(right.body).toMatchObject({ linkId, passwordProtected: true, isDirectory: true, sharedBy: alice.username });
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
  });
}
