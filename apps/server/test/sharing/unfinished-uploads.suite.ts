import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  ciphertextSize,
  decryptName,
  encryptMime,
  encryptName,
  newFileNonce,
  newItemId,
  newItemKey,
  partRange,
  toBase64,
  unwrapItemKey,
  wrapItemKey,
} from '@sealbox/crypto';
import { UNLIMITED } from '../../src/domain/accounts/rate-limits.ts';
import { sweep } from '../../src/domain/files/index.ts';
import { LINK_CAP_MESSAGE, UPLOADER_CAP_MESSAGE } from '../../src/domain/files/unfinished.ts';
import { Browser } from '../accounts/harness.ts';
import {
  folderMeta,
  openFilesHarness,
  postUpload,
  space,
  storedBytes,
  type FilesHarness,
  type MakeFilesEnv,
  type Made,
} from '../files/harness.ts';
import { anonymous, create, grant, keyedUser, makeLink, shareWith, snapshot, withLink, type KeyedUser } from './harness.ts';

const MiB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;
/** A file of 10 MiB goes up in two parts: the smallest that reserves space. */
const PLAIN = 10 * MiB;
const SIZE = ciphertextSize(PLAIN);
const PART0 = partRange(0, SIZE).end;

/** The metadata of a file sent in parts, without encrypting its contents (the server never reads them). */
async function startMeta(parent: Made, plainSize = PLAIN, name = 'big.bin') {
  const id = newItemId();
  const key = newItemKey();
  return {
    id,
    key,
    meta: {
      id,
      parentId: parent.id,
      isDirectory: false,
      ...(await encryptName(key, id, name)),
      ...(await encryptMime(key, id, 'application/octet-stream')),
      ...(await wrapItemKey(parent.key, id, key)),
      fileNonce: toBase64(newFileNonce()),
      size: ciphertextSize(plainSize),
    },
  };
}

/**
 * Unfinished uploads in an owner's tree (issue 21, findings 3 and 8; docs/protocol.md "Uploads by
 * others"): the owner sees and ends them, they end with the access they came through, what a
 * link or another user may hold is capped, an anonymous holder is recorded as such and each
 * address counts on its own. Run against every database and blob store pair.
 */
export function unfinishedUploadsSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`unfinished uploads: ${name}`, () => {
    let h: FilesHarness;
    /** The owner of every tree here. */
    let alice: KeyedUser;
    /** An editor of alice's folders. */
    let bob: KeyedUser;
    /** Signed in, with no entry: only links bring her in. */
    let carol: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      [alice, bob, carol] = [await keyedUser(h), await keyedUser(h), await keyedUser(h)];
    }, 60_000);
    afterAll(async () => {
      await h?.cleanup();
    });

    async function unchanged(fn: () => Promise<void>) {
      const before = await snapshot(h);
      await fn();
      expect(await snapshot(h)).toEqual(before);
    }

    /** A new top-level folder of alice's. */
    async function folder(label = 'drop'): Promise<Made> {
      const made = await folderMeta(alice.rootKey, null, label);
      await create(alice, made);
      return made;
    }

    /** Starts a file in parts in `parent` as `browser` (through `linkId` if given): the answer. */
    async function start(browser: Browser, parent: Made, linkId?: string, plainSize = PLAIN) {
      // Listed newest first: each start a moment after the one before.
      h.clock.advance(1);
      const made = await startMeta(parent, plainSize);
      const answer = await postUpload(browser, made.meta, undefined, withLink('/api/upload', linkId));
      return { ...made, status: answer.status, body: answer.body, uploadId: answer.body.uploadId as string };
    }

    async function started(browser: Browser, parent: Made, linkId?: string) {
      const upload = await start(browser, parent, linkId);
      expect([upload.status, upload.body.message]).toEqual([201, undefined]);
      return upload;
    }

    /** Part 0 of an upload of SIZE bytes (the server stores what it is sent). */
    const part0 = (browser: Browser, uploadId: string, linkId?: string) => {
      const { start: from, end } = partRange(0, SIZE);
      const bytes = new Uint8Array(end - from).fill(9);
      return browser.call('PUT', withLink(`/api/upload/${uploadId}/part/0`, linkId), {
        body: bytes,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
      });
    };

    const uploadRow = (uploadId: string) =>
      h.db.kysely.selectFrom('uploads').select('id').where('id', '=', uploadId).executeTakeFirst();
    const listedIds = async (user: KeyedUser) =>
      ((await user.browser.get('/api/uploads')).body.uploads as Array<{ uploadId: string }>).map((u) => u.uploadId);
    const revoke = (itemId: string, userId: string, by = alice) =>
      by.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: itemId, userId } });

    /** Alice's space is exactly what her stored parts and her listed uploads hold. */
    async function exactSpace() {
      const { uploads } = (await alice.browser.get('/api/uploads?limit=1000')).body as {
        uploads: Array<{ item: { size: number }; received: number }>;
      };
      const held = uploads.reduce((sum, u) => sum + u.item.size - u.received, 0);
      expect(await space(h, alice.id)).toMatchObject({ used: await storedBytes(h, alice.id), reserved: held });
    }

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
      const mid = await folderMeta(top.key, top.id, 'mid');
      await create(alice, mid);
      const low = await folderMeta(mid.key, mid.id, 'low');
      await create(alice, low);
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

    test('deleting a link ends every upload started through it at once; a part sent afterwards is refused', async () => {
      const drop = await folder();
      await shareWith(alice, drop, bob.id, true);
      const linkId = await makeLink(alice, drop, { edit: true });
      const otherLink = await makeLink(alice, drop, { edit: true });
      const visitor = anonymous(h);
      const anon = await started(visitor, drop, linkId);
      expect((await part0(visitor, anon.uploadId, linkId)).status).toBe(204);
      const signedIn = await started(carol.browser, drop, linkId);
      const throughOther = await started(visitor, drop, otherLink);
      const bobs = await started(bob.browser, drop);
      const before = await space(h, alice.id);

      expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(204);
      expect([await uploadRow(anon.uploadId), await uploadRow(signedIn.uploadId)]).toEqual([undefined, undefined]);
      expect(await listedIds(alice)).toEqual([bobs.uploadId, throughOther.uploadId]);
      // Their reservations and the part already stored are freed with them.
      expect(await space(h, alice.id)).toEqual({
        ...before,
        used: before.used - PART0,
        reserved: before.reserved - 2 * SIZE + PART0,
      });
      await unchanged(async () => {
        expect((await part0(visitor, anon.uploadId, linkId)).status).toBe(404);
        expect((await part0(carol.browser, signedIn.uploadId, linkId)).status).toBe(404);
      });
      await exactSpace();
      for (const { uploadId } of [bobs, throughOther])
        expect((await alice.browser.delete(`/api/upload/${uploadId}`)).status).toBe(204);
    });

    test('switching a link to viewer ends its uploads at once; switched back, they do not return', async () => {
      const drop = await folder();
      const linkId = await makeLink(alice, drop, { edit: true });
      const visitor = anonymous(h);
      const anon = await started(visitor, drop, linkId);
      const before = await space(h, alice.id);
      expect((await alice.browser.put('/api/share', { type: 'link', linkId, edit: false })).status).toBe(200);
      expect(await uploadRow(anon.uploadId)).toBeUndefined();
      expect((await space(h, alice.id)).reserved).toBe(before.reserved - SIZE);
      expect((await alice.browser.put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(200);
      await unchanged(async () => {
        expect((await part0(visitor, anon.uploadId, linkId)).status).toBe(404);
      });
      // A password change keeps the link an editor's: its uploads go on.
      const again = await started(visitor, drop, linkId);
      expect((await alice.browser.put('/api/share', { type: 'link', linkId, password: null })).status).toBe(200);
      expect(await uploadRow(again.uploadId)).toBeDefined();
      expect((await alice.browser.delete(`/api/upload/${again.uploadId}`)).status).toBe(204);
    });

    test("an expired link's uploads end at the sweep", async () => {
      const drop = await folder();
      const linkId = await makeLink(alice, drop, { edit: true, expires: 60 });
      const anon = await started(anonymous(h), drop, linkId);
      const before = await space(h, alice.id);
      h.clock.advance(61_000);
      try {
        expect((await sweep(h.files, { graceMs: 0 })).expiredLinks).toBe(1);
      } finally {
        h.clock.advance(-61_000);
      }
      expect(await uploadRow(anon.uploadId)).toBeUndefined();
      expect((await space(h, alice.id)).reserved).toBe(before.reserved - SIZE);
    });

    test('revoking a user, switching them to viewer or their leaving ends the uploads they can no longer finish', async () => {
      const team = await folder('team');
      const inner = await folderMeta(team.key, team.id, 'inner');
      await create(alice, inner);
      await shareWith(alice, team, bob.id, true);
      await shareWith(alice, inner, bob.id, true);
      const inTeam = await started(bob.browser, team);
      const inInner = await started(bob.browser, inner);
      expect((await part0(bob.browser, inInner.uploadId)).status).toBe(204);
      const before = await space(h, alice.id);

      // Revoked on team: the upload there ends; the one in inner goes on under bob's entry there.
      expect((await revoke(team.id, bob.id)).status).toBe(204);
      expect(await uploadRow(inTeam.uploadId)).toBeUndefined();
      expect(await uploadRow(inInner.uploadId)).toBeDefined();
      expect((await space(h, alice.id)).reserved).toBe(before.reserved - SIZE);
      await unchanged(async () => {
        expect((await part0(bob.browser, inTeam.uploadId)).status).toBe(404);
        // A revoked editor reaches nothing of alice's uploads.
        expect((await bob.browser.delete(`/api/upload/${inTeam.uploadId}`)).status).toBe(404);
      });

      // Switched to viewer on inner: that one ends too, with the part it had sent.
      const viewerGrant = await grant(alice, inner, bob.id, false);
      const switched = await alice.browser.put('/api/share', {
        type: 'user',
        fileId: inner.id,
        userId: bob.id,
        edit: false,
        signature: viewerGrant.signature,
      });
      expect(switched.status).toBe(200);
      expect(await uploadRow(inInner.uploadId)).toBeUndefined();
      expect(await space(h, alice.id)).toMatchObject({
        used: before.used - PART0,
        reserved: before.reserved - 2 * SIZE + PART0,
      });
      expect((await part0(bob.browser, inInner.uploadId)).status).toBe(404);

      // Leaving a share (the recipient drops it) ends theirs as well.
      const other = await folder('other');
      await shareWith(alice, other, bob.id, true);
      const inOther = await started(bob.browser, other);
      expect((await revoke(other.id, bob.id, bob)).status).toBe(204);
      expect(await uploadRow(inOther.uploadId)).toBeUndefined();
      await exactSpace();
    });

    test('a link, and each other user, may hold only so much unfinished; the owner is not held; refusals change nothing', async () => {
      const capped = h.makeApp({ maxUnfinishedBytes: { perLink: 2 * SIZE, perUploader: 2 * SIZE } });
      const as = (user: KeyedUser) => Object.assign(new Browser(capped), { cookie: user.browser.cookie });
      // Someone with no unfinished upload anywhere yet.
      const dave = await keyedUser(h);
      const drop = await folder();
      await shareWith(alice, drop, dave.id, true);
      const linkId = await makeLink(alice, drop, { edit: true });
      const [here, there] = [new Browser(capped, { ip: '198.51.100.20' }), new Browser(capped, { ip: '198.51.100.21' })];
      const first = await started(here, drop, linkId);
      await started(there, drop, linkId);
      await unchanged(async () => {
        for (const browser of [here, there, as(carol)]) {
          const refused = await start(browser, drop, linkId);
          expect([refused.status, refused.body.message]).toEqual([402, LINK_CAP_MESSAGE]);
        }
      });
      // Sending a part does not make room: the cap counts the whole size of what is unfinished
      // (counting what is still reserved, a file of one part would now fit).
      expect((await part0(here, first.uploadId, linkId)).status).toBe(204);
      expect((await start(here, drop, linkId, 8 * MiB)).status).toBe(402);
      // Whole small files still go in, and another link has its own room.
      const small = await startMeta(drop, 1000);
      expect((await postUpload(there, small.meta, new Uint8Array(small.meta.size), withLink('/api/upload', linkId))).status).toBe(
        201,
      );
      const otherLink = await makeLink(alice, drop, { edit: true });
      await started(here, drop, otherLink);

      // dave, an editor: two of his own, then 402, through a link or not.
      const davesFirst = await started(as(dave), drop);
      await started(as(dave), drop);
      await unchanged(async () => {
        const refused = await start(as(dave), drop);
        expect([refused.status, refused.body.message]).toEqual([402, UPLOADER_CAP_MESSAGE]);
        expect((await start(as(dave), drop, otherLink)).status).toBe(402);
      });
      // Ending one makes room again.
      expect((await as(dave).delete(`/api/upload/${davesFirst.uploadId}`)).status).toBe(204);
      await started(as(dave), drop);
      // The owner's own uploads are bounded by her quota only.
      for (let i = 0; i < 3; i++) await started(as(alice), drop);
      expect((await alice.browser.call('DELETE', `/api/file/${drop.id}`)).status).toBe(204);
      await exactSpace();
    });

    test('an anonymous link holder is recorded as such, never as the owner; rows of older builds read as they were written', async () => {
      const drop = await folder();
      const linkId = await makeLink(alice, drop, { edit: true });
      const made = await folderMeta(drop.key, drop.id, 'by a visitor');
      h.delivered.length = 0;
      await create({ browser: anonymous(h) }, made, `?linkId=${linkId}`);
      const byCarol = await folderMeta(drop.key, drop.id, 'by carol');
      await create(carol, byCarol, `?linkId=${linkId}`);
      const listing = (await alice.browser.get(`/api/file?id=${drop.id}`)).body;
      const uploaderOf = (id: string) => listing.files.find((f: { id: string }) => f.id === id).uploaderId;
      expect([uploaderOf(made.id), uploaderOf(byCarol.id)]).toEqual([null, carol.id]);
      expect(listing.users.map((u: { id: string }) => u.id).sort()).toEqual([alice.id, carol.id].sort());
      // Events name the owner, never a null user.
      expect(h.delivered.find((e) => e.kind === 'item.created' && e.itemId === made.id)?.userIds).toEqual([alice.id]);
      // Older builds read uploader_id as a user: the owner's id stands there, the flag says who.
      const row = (id: string) =>
        h.db.kysely
          .selectFrom('items')
          .select(['uploader_id', 'uploader_anonymous'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      expect(await row(made.id)).toEqual({ uploader_id: alice.id, uploader_anonymous: 1 });
      expect(await row(byCarol.id)).toEqual({ uploader_id: carol.id, uploader_anonymous: 0 });
      // A row an older build wrote does not say: it shows whom that build recorded.
      await h.db.kysely.updateTable('items').set({ uploader_anonymous: null }).where('id', '=', made.id).execute();
      const again = (await alice.browser.get(`/api/file?id=${drop.id}`)).body;
      expect(again.files.find((f: { id: string }) => f.id === made.id).uploaderId).toBe(alice.id);
    });

    test('each address has its own creation limit on a link, so one holder cannot lock the others out', async () => {
      const limited = h.makeApp({ rateLimits: { ...UNLIMITED, createItemAccount: { max: 3, windowMs: HOUR } } });
      const drop = await folder();
      const linkId = await makeLink(alice, drop, { edit: true });
      const make = async (browser: Browser) =>
        (await postUpload(browser, (await folderMeta(drop.key, drop.id)).meta, undefined, withLink('/api/upload', linkId)))
          .status;
      const abuser = new Browser(limited, { ip: '198.51.100.30' });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push(await make(abuser));
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect(await make(new Browser(limited, { ip: '198.51.100.31' }))).toBe(201);
      // An IPv6 holder counts by its /64: another address in it is the same holder.
      const v6 = (n: number) => new Browser(limited, { ip: `2001:db8:1:2::${n}` });
      for (let i = 0; i < 3; i++) expect(await make(v6(i + 1))).toBe(201);
      expect(await make(v6(9))).toBe(429);
    });
  });
}
