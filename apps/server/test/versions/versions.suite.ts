import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { newFileNonce, PART_BYTES, partCount, toBase64 } from '@sealbox/crypto';
import { endAccount } from '../../src/domain/files/account-deletion.ts';
import { sweep } from '../../src/domain/files/index.ts';
import {
  Browser,
  decrypt,
  download,
  openFilesHarness,
  patternBytes,
  patternFile,
  postFolder,
  postUpload,
  sealContent,
  space,
  storedBytes,
  uploadFile,
  type Bytes,
  type Encrypted,
  type FilesHarness,
  type MakeFilesEnv,
} from '../files/harness.ts';
import { anonymous, keyedUser, makeLink, shareWith, snapshot, type KeyedUser } from '../sharing/harness.ts';

const DAY = 24 * 60 * 60 * 1000;
const RETENTION = 30 * DAY;

/** Version views as GET /api/file/{id}/versions lists them. */
interface Listed {
  id: string;
  size: number;
  fileNonce: string;
  uploaderId: string | null;
  createdAt: number;
  replacedAt: number;
}

/**
 * Versions (docs/protocol.md "Versions"): an upload with `versionOf` keeps the file's content as a
 * version of the same item; versions are listed, downloaded, restored and deleted; their bytes
 * count on the owner's space (checked against what is stored after every step); MAX_VERSIONS and
 * VERSION_RETENTION_DAYS thin them; a delete for good frees them.
 */
export function versionsSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`versions: ${name}`, () => {
    let h: FilesHarness;
    let alice: KeyedUser;
    let bob: KeyedUser;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      [alice, bob] = [await keyedUser(h), await keyedUser(h)];
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    /** New content for `file`, sealed under its K with a fresh fileNonce (or the one given). */
    const newContent = async (file: Encrypted, plain: Bytes, fileNonce: Uint8Array = newFileNonce()): Promise<Encrypted> => {
      // Each content a second after the last, so versions have an order by date.
      h.clock.advance(1000);
      const cipher = await sealContent(file.key, fileNonce, plain);
      return {
        ...file,
        plain,
        cipher,
        fileNonce,
        meta: { versionOf: file.id, fileNonce: toBase64(fileNonce), size: cipher.byteLength },
      };
    };
    const versions = async (user: KeyedUser, id: string): Promise<Listed[]> => {
      const answer = await user.browser.get(`/api/file/${id}/versions`);
      expect(answer.status).toBe(200);
      return answer.body.versions;
    };
    const versionData = (browser: KeyedUser['browser'], id: string, versionId: string, range?: string) =>
      browser.request('GET', `/api/file/${id}/versions/${versionId}/data`, range ? { headers: { range } } : {});
    /** The plaintext of what the file serves as its newest, opened with `content`'s nonce. */
    const newest = async (browser: KeyedUser['browser'], content: Encrypted) => {
      const got = await download(browser, content.id);
      expect(got.status).toBe(200);
      return decrypt(content, got.bytes);
    };
    /** usedSpace is the bytes of everything stored for the user; nothing left reserved. */
    const quotaExact = async (user: KeyedUser) => {
      const { used, reserved } = await space(h, user.id);
      expect({ used, reserved }).toEqual({ used: await storedBytes(h, user.id), reserved: 0 });
    };
    /** Every part blob is named by a row of a file or a version, and every row's blob is there. */
    const blobsMatchRows = async () => {
      const k = h.db.kysely;
      const named = [
        ...(await k.selectFrom('item_parts').select('blob_key').execute()),
        ...(await k.selectFrom('item_version_parts').select('blob_key').execute()),
      ].map((row) => row.blob_key);
      const blobs: string[] = [];
      for await (const key of h.blobs.list('part-')) blobs.push(key);
      expect(blobs.sort()).toEqual(named.sort());
    };

    test('three new versions: listed, each downloaded byte for byte; the first restored; one deleted', async () => {
      const first = await patternFile(alice.rootKey, null, 20_000, 1, 'report.txt');
      await uploadFile(alice, first);
      await quotaExact(alice);
      // Whole, in parts (larger than one part), whole again.
      const made: Encrypted[] = [];
      for (const [length, seed] of [
        [30_000, 2],
        [PART_BYTES + 5_000, 3],
        [10_000, 4],
      ] as const) {
        const content = await newContent(first, patternBytes(length, seed));
        made.push(content);
        h.delivered.length = 0;
        await uploadFile(alice, content);
        expect(h.delivered).toContainEqual({ kind: 'item.versions', itemId: first.id, parentId: null, userIds: [alice.id] });
        expect(await newest(alice.browser, content)).toEqual(content.plain);
        await quotaExact(alice);
      }
      const [second, third, fourth] = made as [Encrypted, Encrypted, Encrypted];
      expect(partCount(third.cipher.byteLength)).toBeGreaterThan(1);
      // The same item: one id, listed once, with the newest content's size and nonce.
      const listed = (await alice.browser.get('/api/file')).body.files.filter((f: { id: string }) => f.id === first.id);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        size: fourth.cipher.byteLength,
        fileNonce: toBase64(fourth.fileNonce),
        uploaderId: alice.id,
      });
      expect(await h.db.kysely.selectFrom('items').select('id').where('owner_id', '=', alice.id).execute()).toHaveLength(1);

      const kept = await versions(alice, first.id);
      const earlier = [third, second, first];
      expect(kept.map((v) => [v.fileNonce, v.size, v.uploaderId])).toEqual(
        earlier.map((c) => [toBase64(c.fileNonce), c.cipher.byteLength, alice.id]),
      );
      for (const [i, content] of earlier.entries()) {
        const whole = await versionData(alice.browser, first.id, kept[i]!.id);
        expect(whole.status).toBe(200);
        expect(whole.headers.get('content-disposition')).toBe('attachment');
        expect(await decrypt(content, new Uint8Array(await whole.arrayBuffer()))).toEqual(content.plain);
        // One range, as the preview's service worker asks.
        const part = await versionData(alice.browser, first.id, kept[i]!.id, 'bytes=100-999');
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 100-999/${content.cipher.byteLength}`);
        expect(new Uint8Array(await part.arrayBuffer())).toEqual(content.cipher.subarray(100, 1000));
      }
      expect((await versionData(alice.browser, first.id, kept[0]!.id, 'bytes=99999999-')).status).toBe(416);

      // Restore the first: it becomes the newest, the others stay, and the newest becomes a version.
      h.delivered.length = 0;
      const restored = await alice.browser.post(`/api/file/${first.id}/versions/${kept[2]!.id}/restore`, {});
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id: first.id, size: first.cipher.byteLength, fileNonce: toBase64(first.fileNonce) });
      expect(h.delivered.map((e) => e.kind)).toContain('item.versions');
      expect(await newest(alice.browser, first)).toEqual(first.plain);
      const afterRestore = await versions(alice, first.id);
      // The list names the current content it was read with: the restored one.
      const { current } = (await alice.browser.get(`/api/file/${first.id}/versions`)).body;
      expect(current).toEqual({
        size: first.cipher.byteLength,
        fileNonce: toBase64(first.fileNonce),
        uploaderId: alice.id,
        modifiedAt: restored.body.modifiedAt,
      });
      expect(afterRestore.map((v) => v.fileNonce).sort()).toEqual(
        [fourth, third, second].map((c) => toBase64(c.fileNonce)).sort(),
      );
      await quotaExact(alice);
      await blobsMatchRows();

      // Delete the second: its bytes and blobs go; the rest still download.
      const secondVersion = afterRestore.find((v) => v.fileNonce === toBase64(second.fileNonce))!;
      expect((await alice.browser.delete(`/api/file/${first.id}/versions/${secondVersion.id}`)).status).toBe(204);
      expect((await versions(alice, first.id)).map((v) => v.id)).not.toContain(secondVersion.id);
      expect((await versionData(alice.browser, first.id, secondVersion.id)).status).toBe(404);
      await quotaExact(alice);
      await blobsMatchRows();
      const fourthVersion = (await versions(alice, first.id)).find((v) => v.fileNonce === toBase64(fourth.fileNonce))!;
      const got = await versionData(alice.browser, first.id, fourthVersion.id);
      expect(await decrypt(fourth, new Uint8Array(await got.arrayBuffer()))).toEqual(fourth.plain);
    }, 120_000);

    test('a reused fileNonce, a stranger, a viewer and wrong ids are refused and change nothing', async () => {
      const file = await patternFile(alice.rootKey, null, 8_000, 11);
      await uploadFile(alice, file);
      const next = await newContent(file, patternBytes(9_000, 12));
      await uploadFile(alice, next);
      const [kept] = await versions(alice, file.id);
      const other = await patternFile(alice.rootKey, null, 5_000, 13);
      await uploadFile(alice, other);
      await uploadFile(alice, await newContent(other, patternBytes(5_000, 14)));
      const [otherVersion] = await versions(alice, other.id);
      const folder = await postFolder(alice, null, 'Folder');
      const viewer = await keyedUser(h);
      await shareWith(alice, file, viewer.id, false);
      const before = await snapshot(h);

      // Never a (K, fileNonce) pair twice: not the newest content's nonce, nor a kept version's.
      for (const used of [next.fileNonce, file.fileNonce]) {
        const again = await newContent(file, patternBytes(9_000, 15), used);
        expect((await postUpload(alice.browser, again.meta, again.cipher)).status).toBe(400);
        const inParts = await newContent(file, patternBytes(PART_BYTES + 10, 15), used);
        expect((await postUpload(alice.browser, inParts.meta)).status).toBe(400);
      }
      const fresh = await newContent(file, patternBytes(100, 16));
      const freshInParts = await newContent(file, patternBytes(PART_BYTES + 10, 17));
      const badMeta = [
        { ...fresh.meta, versionOf: folder.id },
        { ...fresh.meta, versionOf: 'not-an-id' },
        { ...fresh.meta, fileNonce: toBase64(new Uint8Array(8)) },
        { ...fresh.meta, encryptedMimeType: toBase64(new Uint8Array(20)) },
        { ...fresh.meta, parentId: null },
      ];
      for (const meta of badMeta) expect((await postUpload(alice.browser, meta, fresh.cipher)).status).toBe(400);
      expect((await alice.browser.get(`/api/file/${folder.id}/versions`)).status).toBe(400);
      expect((await alice.browser.post(`/api/file/${folder.id}/versions/${kept!.id}/restore`, {})).status).toBe(400);
      expect((await alice.browser.delete(`/api/file/${folder.id}/versions/${kept!.id}`)).status).toBe(400);
      expect((await alice.browser.get('/api/file/nope/versions')).status).toBe(400);
      // Another file's version, and a version id that names nothing.
      expect((await versionData(alice.browser, file.id, otherVersion!.id)).status).toBe(404);
      expect((await alice.browser.post(`/api/file/${file.id}/versions/${otherVersion!.id}/restore`, {})).status).toBe(404);
      expect((await alice.browser.delete(`/api/file/${file.id}/versions/${crypto.randomUUID()}`)).status).toBe(404);

      // A stranger sees nothing (404); a viewer sees the file but not its history (403).
      for (const [user, status] of [
        [bob, 404],
        [viewer, 403],
      ] as const) {
        expect((await user.browser.get(`/api/file/${file.id}/versions`)).status).toBe(status);
        expect((await versionData(user.browser, file.id, kept!.id)).status).toBe(status);
        expect((await user.browser.post(`/api/file/${file.id}/versions/${kept!.id}/restore`, {})).status).toBe(status);
        expect((await user.browser.delete(`/api/file/${file.id}/versions/${kept!.id}`)).status).toBe(status);
        expect((await postUpload(user.browser, fresh.meta, fresh.cipher)).status).toBe(status);
        expect((await postUpload(user.browser, freshInParts.meta)).status).toBe(status);
      }
      expect(await snapshot(h)).toEqual(before);
      await quotaExact(alice);
    }, 120_000);

    test('an editor uploads, lists and restores versions but deletes none; shares and links serve the newest', async () => {
      const shared = await postFolder(alice, null, 'Shared');
      const file = await patternFile(shared.key, shared.id, 12_000, 21);
      await uploadFile(alice, file);
      const editor = await keyedUser(h);
      await shareWith(alice, shared, editor.id, true);
      const viewer = await keyedUser(h);
      await shareWith(alice, file, viewer.id, false);
      const viewLink = await makeLink(alice, file);
      const editLink = await makeLink(alice, shared, { edit: true });

      // An editor's new version: same id, and the viewer, the link and the owner all get it.
      const byEditor = await newContent(file, patternBytes(13_000, 22));
      h.delivered.length = 0;
      const sent = await postUpload(editor.browser, byEditor.meta, byEditor.cipher);
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ id: file.id, size: byEditor.cipher.byteLength });
      const event = h.delivered.find((e) => e.kind === 'item.versions');
      expect(event?.userIds?.sort()).toEqual([alice.id, editor.id, viewer.id].sort());
      for (const browser of [alice.browser, editor.browser, viewer.browser]) {
        expect(await newest(browser, byEditor)).toEqual(byEditor.plain);
      }
      const visitor = anonymous(h);
      const viaLink = await visitor.request('GET', `/api/file/data/${file.id}?linkId=${viewLink}`);
      expect(await decrypt(byEditor, new Uint8Array(await viaLink.arrayBuffer()))).toEqual(byEditor.plain);
      // The viewer's listing shows the newest size, under the same id.
      const seen = (await viewer.browser.get('/api/shared')).body.files.find((f: { id: string }) => f.id === file.id);
      expect(seen).toMatchObject({ size: byEditor.cipher.byteLength, fileNonce: toBase64(byEditor.fileNonce) });

      // A link editor, in parts.
      const byLink = await newContent(file, patternBytes(PART_BYTES + 700, 23));
      const started = await postUpload(visitor, byLink.meta, undefined, `/api/upload?linkId=${editLink}`);
      expect(started.status).toBe(201);
      expect(started.body.id).toBe(file.id);
      for (let n = 0; n < started.body.parts; n++) {
        const { start, end } = { start: n * PART_BYTES, end: Math.min((n + 1) * PART_BYTES, byLink.cipher.byteLength) };
        const put = await visitor.call('PUT', `/api/upload/${started.body.uploadId}/part/${n}?linkId=${editLink}`, {
          body: byLink.cipher.subarray(start, end),
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(end - start) },
        });
        expect(put.status).toBe(204);
      }
      // While the parts wait, the file still serves the editor's content and nothing new is listed.
      expect(await newest(alice.browser, byEditor)).toEqual(byEditor.plain);
      expect((await alice.browser.get(`/api/file?id=${shared.id}`)).body.files.map((f: { id: string }) => f.id)).toEqual([
        file.id,
      ]);
      const done = await visitor.call('POST', `/api/upload/${started.body.uploadId}/complete?linkId=${editLink}`);
      expect(done.status).toBe(200);
      expect(await newest(viewer.browser, byLink)).toEqual(byLink.plain);
      await quotaExact(alice);

      const kept = await versions(editor, file.id);
      expect(kept.map((v) => v.uploaderId)).toEqual([editor.id, alice.id]);
      expect((await editor.browser.delete(`/api/file/${file.id}/versions/${kept[1]!.id}`)).status).toBe(403);
      expect((await editor.browser.post(`/api/file/${file.id}/versions/${kept[1]!.id}/restore`, {})).status).toBe(200);
      expect(await newest(viewer.browser, file)).toEqual(file.plain);
      const viaLinkAgain = await visitor.request('GET', `/api/file/data/${file.id}?linkId=${viewLink}`);
      expect(await decrypt(file, new Uint8Array(await viaLinkAgain.arrayBuffer()))).toEqual(file.plain);
      await quotaExact(alice);
      await blobsMatchRows();
    }, 120_000);

    test('an upload of a version in parts that is aborted or expires leaves the file as it was', async () => {
      const file = await patternFile(alice.rootKey, null, 6_000, 31);
      await uploadFile(alice, file);
      const before = await snapshot(h);
      const big = await newContent(file, patternBytes(PART_BYTES + 100, 32));
      for (const end of ['abort', 'expire'] as const) {
        const started = await postUpload(alice.browser, big.meta);
        expect(started.status).toBe(201);
        expect((await alice.browser.get(`/api/upload/${started.body.uploadId}`)).body.id).toBe(file.id);
        const put = await alice.browser.call('PUT', `/api/upload/${started.body.uploadId}/part/0`, {
          body: big.cipher.subarray(0, PART_BYTES),
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(PART_BYTES) },
        });
        expect(put.status).toBe(204);
        // Shown among the owner's unfinished uploads as the file it will change.
        const unfinished = (await alice.browser.get('/api/uploads')).body.uploads;
        expect(unfinished.map((u: { item: { id: string } }) => u.item.id)).toEqual([file.id]);
        if (end === 'abort') expect((await alice.browser.delete(`/api/upload/${started.body.uploadId}`)).status).toBe(204);
        else {
          h.clock.advance(25 * 60 * 60 * 1000);
          expect((await sweep(h.files, { graceMs: 0 })).expiredUploads).toBe(1);
        }
        expect(await newest(alice.browser, file)).toEqual(file.plain);
        expect(await versions(alice, file.id)).toEqual([]);
        await quotaExact(alice);
      }
      const after = await snapshot(h);
      expect({ ...after, users: [] }).toEqual({ ...before, users: [] });
    }, 120_000);

    test('MAX_VERSIONS: the oldest beyond it go at once, with their bytes and blobs', async () => {
      const app = h.makeApp({ maxVersions: 2 });
      const carol = await keyedUser(h, app);
      const file = await patternFile(carol.rootKey, null, 4_000, 41);
      await uploadFile(carol, file);
      const contents = [file];
      for (let i = 0; i < 4; i++) {
        const next = await newContent(file, patternBytes(4_000 + i * 1_000, 42 + i));
        await uploadFile(carol, next);
        contents.push(next);
        await quotaExact(carol);
      }
      const kept = await versions(carol, file.id);
      expect(kept.map((v) => v.fileNonce)).toEqual([contents[3]!, contents[2]!].map((c) => toBase64(c.fileNonce)));
      await blobsMatchRows();
      // 0: an upload over a file keeps nothing of what it replaces (and lowering the limit trims at once).
      const none = { ...carol, browser: new Browser(h.makeApp({ maxVersions: 0 }), { ip: '203.0.113.1' }) };
      none.browser.cookie = carol.browser.cookie;
      const last = await newContent(file, patternBytes(1_000, 49));
      await uploadFile(none, last);
      expect(await versions(none, file.id)).toEqual([]);
      expect(await newest(none.browser, last)).toEqual(last.plain);
      await quotaExact(carol);
      await blobsMatchRows();
    }, 120_000);

    test('VERSION_RETENTION_DAYS: the sweep thins old versions, two sweeps at once free each once', async () => {
      const dave = await keyedUser(h);
      const files = [];
      for (let i = 0; i < 3; i++) {
        const file = await patternFile(dave.rootKey, null, 3_000, 51 + i);
        await uploadFile(dave, file);
        for (let j = 0; j < 2; j++) await uploadFile(dave, await newContent(file, patternBytes(3_500, 60 + i * 2 + j)));
        files.push(file);
      }
      // Sessions end as the clock moves on: what is kept is read from the store.
      const kept = (id: string) => h.files.store.versions(id);
      h.clock.advance(RETENTION - DAY);
      const ports = { ...h.files, versionRetentionMs: RETENTION };
      // Earlier tests' versions are older still: the first sweep takes them, none of dave's.
      await sweep(ports, { graceMs: 0 });
      for (const file of files) expect(await kept(file.id)).toHaveLength(2);
      // One more, replaced now: younger than the retention when the others pass it.
      const fresh = await newContent(files[0]!, patternBytes(2_000, 70));
      await uploadFile(dave, fresh);
      h.clock.advance(2 * DAY);
      const rows = async () => (await h.db.kysely.selectFrom('item_versions').select('id').execute()).length;
      const before = await rows();
      const [a, b] = await Promise.all([sweep(ports, { graceMs: 0 }), sweep(ports, { graceMs: 0 })]);
      // Each version went once: the two reports add up to the rows removed.
      expect(a.expiredVersions + b.expiredVersions).toBe(before - (await rows()));
      const left = await kept(files[0]!.id);
      expect(left).toHaveLength(1);
      for (const file of files.slice(1)) expect(await kept(file.id)).toEqual([]);
      await quotaExact(dave);
      await blobsMatchRows();
      // 0: no age limit.
      h.clock.advance(RETENTION * 2);
      expect((await sweep({ ...h.files, versionRetentionMs: 0 }, { graceMs: 0 })).expiredVersions).toBe(0);
      expect(await kept(files[0]!.id)).toHaveLength(1);
    }, 120_000);

    test('a file deleted for good frees its versions: at once, from the trash, with the account', async () => {
      const withVersions = async (user: KeyedUser, seed: number) => {
        const file = await patternFile(user.rootKey, null, 5_000, seed);
        await uploadFile(user, file);
        await uploadFile(user, await newContent(file, patternBytes(PART_BYTES + 300, seed + 1)));
        await uploadFile(user, await newContent(file, patternBytes(700, seed + 2)));
        expect(await versions(user, file.id)).toHaveLength(2);
        return file;
      };
      const versionRows = (ids: string[]) =>
        h.db.kysely.selectFrom('item_versions').select('id').where('item_id', 'in', ids).execute();

      // Without a trash (the default app): a delete is for good at once.
      const erin = await keyedUser(h);
      const atOnce = await withVersions(erin, 81);
      expect((await erin.browser.delete(`/api/file/${atOnce.id}`)).status).toBe(204);
      expect(await versionRows([atOnce.id])).toEqual([]);
      await quotaExact(erin);
      await blobsMatchRows();

      // With a trash: the versions stay counted while it is there, and go when it is purged.
      const frank = await keyedUser(h, h.makeApp({ trashRetentionMs: RETENTION }));
      const trashed = await withVersions(frank, 91);
      const used = (await space(h, frank.id)).used;
      expect((await frank.browser.delete(`/api/file/${trashed.id}`)).status).toBe(204);
      await quotaExact(frank);
      // Everything frank stores is in the trash now, versions included.
      expect((await frank.browser.get('/api/trash')).body.bytes).toBe(await storedBytes(h, frank.id));
      expect((await space(h, frank.id)).used).toBe(used);
      expect((await frank.browser.delete(`/api/trash/${trashed.id}`)).status).toBe(204);
      expect(await versionRows([trashed.id])).toEqual([]);
      expect((await space(h, frank.id)).used).toBe(0);
      await quotaExact(frank);
      await blobsMatchRows();

      // With the account: its purge takes every file's versions.
      const gina = await keyedUser(h);
      const hers = [await withVersions(gina, 101), await withVersions(gina, 111)];
      expect(await endAccount(h.files, gina.id, () => ({ kind: 'session.ended', userIds: [] }))).toBe(true);
      await sweep(h.files, { graceMs: 0 });
      expect(await versionRows(hers.map((f) => f.id))).toEqual([]);
      expect((await space(h, gina.id)).used).toBe(0);
      await blobsMatchRows();
    }, 120_000);
  });
}
