import { beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES, toBase64 } from '@sealbox/crypto';
import type { Browser } from '../accounts/harness.ts';
import {
  folderMeta,
  partBytes,
  patternFile,
  postFile,
  postFolder,
  postUpload,
  type Encrypted,
  type FilesHarness,
  type Made,
} from '../files/harness.ts';
import { anonymous, create, grant, keyedUser, makeLink, shareWith, snapshot, withLink, type KeyedUser } from './harness.ts';

const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));

/** Who calls: a browser, and the link it uses (if any). */
interface Caller {
  name: string;
  browser: Browser;
  linkId?: string;
}

type Kind = 'read' | 'write' | 'share';

interface Op {
  name: string;
  kind: Kind;
  /** The status of success. */
  ok: number;
  /** Runs the call as `caller`; fixtures it needs are made (by the owner) before the snapshot. */
  prepare?: () => Promise<Record<string, string>>;
  run: (caller: Caller, fixture: Record<string, string>) => Promise<number>;
}

/** What each caller gets for each kind of call: 'ok', or the refusal. */
type Expectation = Record<Kind, 'ok' | 401 | 403 | 404>;

/**
 * The access matrix of issue 12: every files and sharing route, for every kind of caller. Allowed
 * calls succeed; every other answers 404 (the item is not visible), 403 (visible, the act is not
 * allowed) or 401 (a sharing call, which needs a session, by an anonymous link holder), and
 * changes nothing (rows, quota, blobs, access entries, links).
 */
export function accessMatrix(
  context: () => {
    h: FilesHarness;
    alice: KeyedUser;
    bob: KeyedUser;
    carol: KeyedUser;
    unchanged: (fn: () => Promise<void>) => Promise<void>;
  },
) {
  describe('access matrix', () => {
    let h: FilesHarness;
    let alice: KeyedUser;
    /** alice's W/{inner/{doc2}, doc}. */
    let W: Made;
    let inner: Made;
    let doc: Encrypted;
    let doc2: Encrypted;
    let erin: KeyedUser;
    const callers: Array<{ caller: Caller; expect: Expectation }> = [];

    const call = (caller: Caller, method: string, path: string, json?: unknown) =>
      caller.browser.call(method, withLink(path, caller.linkId), json === undefined ? {} : { json });

    beforeAll(async () => {
      ({ h, alice } = context());
      const { bob: editor, carol: viewer } = { bob: await keyedUser(h), carol: await keyedUser(h) };
      const [revoked, stranger] = [await keyedUser(h), await keyedUser(h)];
      erin = await keyedUser(h);
      W = await folderMeta(alice.rootKey, null, 'W');
      await create(alice, W);
      inner = await folderMeta(W.key, W.id, 'inner');
      await create(alice, inner);
      doc = await patternFile(W.key, W.id, 500, 11, 'doc');
      await create(alice, doc);
      doc2 = await patternFile(inner.key, inner.id, 500, 12, 'doc2');
      await create(alice, doc2);
      await shareWith(alice, W, editor.id, true);
      await shareWith(alice, W, viewer.id, false);
      await shareWith(alice, W, revoked.id, true);
      expect(
        (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: W.id, userId: revoked.id } })).status,
      ).toBe(204);
      const expired = await makeLink(alice, W, { edit: true, expires: 1 });
      h.clock.advance(2000);
      const read: Expectation = { read: 'ok', write: 403, share: 403 };
      const edit: Expectation = { read: 'ok', write: 'ok', share: 403 };
      const none: Expectation = { read: 404, write: 404, share: 404 };
      const anon = (e: Expectation): Expectation => ({ ...e, share: 401 });
      callers.push(
        { caller: { name: 'owner', browser: alice.browser }, expect: { read: 'ok', write: 'ok', share: 'ok' } },
        { caller: { name: 'editor', browser: editor.browser }, expect: edit },
        { caller: { name: 'viewer', browser: viewer.browser }, expect: read },
        { caller: { name: 'revoked user', browser: revoked.browser }, expect: none },
        { caller: { name: 'stranger', browser: stranger.browser }, expect: none },
        { caller: { name: 'viewer link', browser: anonymous(h), linkId: await makeLink(alice, W) }, expect: anon(read) },
        {
          caller: { name: 'editor link', browser: anonymous(h), linkId: await makeLink(alice, W, { edit: true }) },
          expect: anon(edit),
        },
        { caller: { name: 'expired link', browser: anonymous(h), linkId: expired }, expect: anon(none) },
        {
          caller: {
            name: 'link without its password proof',
            browser: anonymous(h),
            linkId: await makeLink(alice, W, { edit: true, password: 'pw' }),
          },
          expect: anon(none),
        },
        {
          caller: {
            name: 'link used outside its subtree',
            browser: anonymous(h),
            linkId: await makeLink(alice, inner, { edit: true }),
          },
          expect: anon(none),
        },
      );
    }, 60_000);

    /** The data route answers bytes, not JSON. */
    const fetchData = async (c: Caller, id: string, range?: string) => {
      const response = await c.browser.request(
        'GET',
        withLink(`/api/file/data/${id}`, c.linkId),
        range ? { headers: { range } } : {},
      );
      await response.arrayBuffer();
      return response.status;
    };

    /** A fresh file of alice's in W. */
    const freshFile = async () => {
      const made = await postFile(alice, W, 100, 5);
      return made.id;
    };
    /** A fresh folder in W shared with erin (viewer). */
    const sharedWithErin = async () => {
      const made = await postFolder(alice, W);
      await shareWith(alice, made, erin.id, false);
      return { id: made.id, key: toBase64(made.key) };
    };

    const ops: Op[] = [
      {
        name: 'GET /api/file?id=W',
        kind: 'read',
        ok: 200,
        run: async (c) => (await call(c, 'GET', `/api/file?id=${W.id}`)).status,
      },
      {
        name: 'GET /api/file?id=doc&includeAncestors&depth=2',
        kind: 'read',
        ok: 200,
        run: async (c) => (await call(c, 'GET', `/api/file?id=${doc.id}&includeAncestors=true&depth=2`)).status,
      },
      { name: 'GET /api/file/data/doc', kind: 'read', ok: 200, run: (c) => fetchData(c, doc.id) },
      {
        name: 'GET /api/file/data/doc with Range',
        kind: 'read',
        ok: 206,
        run: (c) => fetchData(c, doc.id, 'bytes=0-9'),
      },
      {
        name: 'POST /api/upload (folder in W)',
        kind: 'write',
        ok: 201,
        run: async (c) =>
          (await postUpload(c.browser, (await folderMeta(W.key, W.id)).meta, undefined, withLink('/api/upload', c.linkId)))
            .status,
      },
      {
        name: 'POST /api/upload (whole file in W)',
        kind: 'write',
        ok: 201,
        run: async (c) => {
          const made = await patternFile(W.key, W.id, 200, 6);
          return (await postUpload(c.browser, made.meta, made.cipher, withLink('/api/upload', c.linkId))).status;
        },
      },
      {
        name: 'POST /api/upload + PUT parts + complete (in W)',
        kind: 'write',
        ok: 200,
        run: async (c) => {
          const made = await patternFile(W.key, W.id, PART_BYTES + 3, 7);
          const started = await postUpload(c.browser, made.meta, undefined, withLink('/api/upload', c.linkId));
          if (started.status !== 201) return started.status;
          for (let n = 0; n < started.body.parts; n++) {
            const bytes = partBytes(made.cipher, n);
            const sent = await c.browser.call('PUT', withLink(`/api/upload/${started.body.uploadId}/part/${n}`, c.linkId), {
              body: bytes,
              headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
            });
            if (sent.status !== 204) return sent.status;
          }
          if ((await call(c, 'GET', `/api/upload/${started.body.uploadId}`)).status !== 200) return 500;
          return (await call(c, 'POST', `/api/upload/${started.body.uploadId}/complete`)).status;
        },
      },
      {
        name: 'PUT /api/file/{id} rename',
        kind: 'write',
        ok: 200,
        prepare: async () => ({ id: await freshFile() }),
        run: async (c, f) =>
          (await call(c, 'PUT', `/api/file/${f.id}`, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) })).status,
      },
      {
        name: 'PUT /api/file/{id} move into inner',
        kind: 'write',
        ok: 200,
        prepare: async () => ({ id: await freshFile() }),
        run: async (c, f) =>
          (
            await call(c, 'PUT', `/api/file/${f.id}`, {
              type: 'move',
              parentId: inner.id,
              encryptedKey: b64(48),
              keyNonce: b64(12),
            })
          ).status,
      },
      {
        name: 'DELETE /api/file/{id} (a file)',
        kind: 'write',
        ok: 204,
        prepare: async () => ({ id: await freshFile() }),
        run: async (c, f) => (await call(c, 'DELETE', `/api/file/${f.id}`)).status,
      },
      {
        name: 'DELETE /api/file/{id} (a folder with a file)',
        kind: 'write',
        ok: 204,
        prepare: async () => {
          const folder = await postFolder(alice, W);
          await create(alice, await patternFile(folder.key, folder.id, 50, 8));
          return { id: folder.id };
        },
        run: async (c, f) => (await call(c, 'DELETE', `/api/file/${f.id}`)).status,
      },
      {
        name: 'POST /api/share type user',
        kind: 'share',
        ok: 201,
        prepare: async () => {
          const made = await postFolder(alice, W);
          return { id: made.id, ...(await grant(alice, made, erin.id, false)) };
        },
        run: async (c, f) =>
          (
            await call(c, 'POST', '/api/share', {
              type: 'user',
              id: f.id,
              userId: erin.id,
              edit: false,
              encryptedKey: f.encryptedKey,
              signature: f.signature,
            })
          ).status,
      },
      {
        name: 'POST /api/share type link',
        kind: 'share',
        ok: 201,
        run: async (c) => (await call(c, 'POST', '/api/share', { type: 'link', id: W.id, expires: 0, edit: true })).status,
      },
      {
        name: 'PUT /api/share type user',
        kind: 'share',
        ok: 200,
        prepare: sharedWithErin,
        run: async (c, f) =>
          (await call(c, 'PUT', '/api/share', { type: 'user', fileId: f.id, userId: erin.id, edit: true, signature: b64(64) }))
            .status,
      },
      {
        name: 'PUT /api/share type link',
        kind: 'share',
        ok: 200,
        prepare: async () => ({ linkId: await makeLink(alice, W) }),
        run: async (c, f) =>
          (await call(c, 'PUT', '/api/share', { type: 'link', linkId: f.linkId, edit: true, password: 'x' })).status,
      },
      {
        name: 'DELETE /api/shared type user (erin)',
        kind: 'share',
        ok: 204,
        prepare: sharedWithErin,
        run: async (c, f) => (await call(c, 'DELETE', '/api/shared', { type: 'user', fileId: f.id, userId: erin.id })).status,
      },
      {
        name: 'DELETE /api/shared type link',
        kind: 'share',
        ok: 204,
        prepare: async () => ({ linkId: await makeLink(alice, W) }),
        run: async (c, f) => (await call(c, 'DELETE', '/api/shared', { type: 'link', linkId: f.linkId })).status,
      },
      {
        name: 'GET /api/shared/{W}/users',
        kind: 'share',
        ok: 200,
        run: async (c) => (await call(c, 'GET', `/api/shared/${W.id}/users`)).status,
      },
      {
        name: 'GET /api/shared/{W}/links',
        kind: 'share',
        ok: 200,
        run: async (c) => (await call(c, 'GET', `/api/shared/${W.id}/links`)).status,
      },
    ];

    test('every route for every caller: allowed calls succeed, the rest are refused and change nothing', async () => {
      const wrong: string[] = [];
      for (const { caller, expect: expectation } of callers) {
        for (const op of ops) {
          const fixture = (await op.prepare?.()) ?? {};
          const want = expectation[op.kind];
          const before = want === 'ok' ? undefined : await snapshot(h);
          const status = await op.run(caller, fixture);
          const expected = want === 'ok' ? op.ok : want;
          if (status !== expected) wrong.push(`${caller.name} / ${op.name}: ${status}, expected ${expected}`);
          if (before && JSON.stringify(await snapshot(h)) !== JSON.stringify(before))
            wrong.push(`${caller.name} / ${op.name}: changed something`);
        }
      }
      expect(wrong).toEqual([]);
      // Hundreds of calls with a snapshot each: more than bun's 5 s default on a busy machine.
    }, 120_000);

    test('a link used inside its subtree works; GET /api/file without id lists the linked item', async () => {
      const outside = callers.find((c) => c.caller.name === 'link used outside its subtree')!.caller;
      const listing = await call(outside, 'GET', '/api/file');
      expect(listing.status).toBe(200);
      expect(listing.body.root.id).toBe(inner.id);
      expect(listing.body.files.map((f: { id: string }) => f.id)).toContain(doc2.id);
      expect(await fetchData(outside, doc2.id)).toBe(200);
      // Nothing above it, even the folder holding it: no ancestors shown, W itself 404.
      expect(
        (await call(outside, 'GET', `/api/file?id=${doc2.id}&includeAncestors=true`)).body.ancestors.map(
          (a: { id: string }) => a.id,
        ),
      ).toEqual([inner.id]);
      expect((await call(outside, 'GET', `/api/file?id=${W.id}`)).status).toBe(404);
      // Users without a top-level share of W do not see it in their own top level.
      for (const { caller } of callers.filter((c) => c.caller.linkId === undefined && c.caller.name !== 'owner')) {
        const own = await call(caller, 'GET', '/api/file');
        expect(own.body.files.map((f: { id: string }) => f.id)).not.toContain(W.id);
      }
    });

    test("another user with a session cannot use a link holder's upload, nor the reverse", async () => {
      const editorLink = callers.find((c) => c.caller.name === 'editor link')!.caller;
      const editor = callers.find((c) => c.caller.name === 'editor')!.caller;
      const made = await patternFile(W.key, W.id, PART_BYTES + 1, 9);
      const started = await postUpload(editorLink.browser, made.meta, undefined, withLink('/api/upload', editorLink.linkId));
      expect(started.status).toBe(201);
      const mine = await patternFile(W.key, W.id, PART_BYTES + 1, 10);
      const editors = await postUpload(editor.browser, mine.meta);
      expect(editors.status).toBe(201);
      const { unchanged } = context();
      await unchanged(async () => {
        expect((await call(editor, 'GET', `/api/upload/${started.body.uploadId}`)).status).toBe(404);
        expect((await call(editor, 'POST', `/api/upload/${started.body.uploadId}/complete`)).status).toBe(404);
        expect((await call(editor, 'DELETE', `/api/upload/${started.body.uploadId}`)).status).toBe(404);
        expect((await call(editorLink, 'GET', `/api/upload/${editors.body.uploadId}`)).status).toBe(404);
        expect((await call(editorLink, 'DELETE', `/api/upload/${editors.body.uploadId}`)).status).toBe(404);
        // The owner may end it (unfinished uploads), but not as a holder of the link.
        expect((await alice.browser.delete(withLink(`/api/upload/${started.body.uploadId}`, editorLink.linkId))).status).toBe(
          404,
        );
      });
      expect((await call(editorLink, 'DELETE', `/api/upload/${started.body.uploadId}`)).status).toBe(204);
      expect((await call(editor, 'DELETE', `/api/upload/${editors.body.uploadId}`)).status).toBe(204);
    });
  });
}
