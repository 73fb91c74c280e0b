import { newLinkId } from '../../src/domain/files/links.ts';
import { folderMeta, patternFile } from '../files/harness.ts';
import { grant, makeLink } from '../sharing/harness.ts';
import type { RouteMatrix } from './context.ts';
import { b64, form, reusable, type Fixtures } from './fixtures.ts';
import { full, ITEM_READ, ITEM_SHARE, ITEM_WRITE, OWN_VIEW, OWNERS_ONLY, SIGNED_IN, type Row } from './outcomes.ts';

/**
 * The rows of alice's shared folder W (docs/protocol.md "Files and uploads", "Sharing"): its
 * items, alice's uploads in progress into it, sharing it, and the live socket.
 */
export function itemRows({ alice, erin, editorUser, W, inner, doc }: RouteMatrix, f: Fixtures): Row[] {
  const { freshFile, firstParts, startUpload, folders, folderIn, sharedWithErin } = f;
  const uploadPart = reusable(() => startUpload(false));
  return [
    // Items of W.
    { route: 'GET /api/file', label: 'no id', expect: OWN_VIEW, build: () => ({ path: '/api/file' }) },
    {
      route: 'GET /api/file',
      expect: ITEM_READ,
      target: async () => W.id,
      build: (_c, id) => ({ path: `/api/file?id=${id}&includeAncestors=true` }),
    },
    // The caller's own counter (docs/protocol.md "Tree version"): a session's, never a link's.
    { route: 'GET /api/file/tree-version', expect: SIGNED_IN, build: () => ({ path: '/api/file/tree-version' }) },
    // The caller's own tree in pages, for the search index: a session's, never a link's.
    { route: 'GET /api/file/tree', expect: SIGNED_IN, build: () => ({ path: '/api/file/tree?limit=10' }) },
    {
      route: 'GET /api/file/data/:id',
      expect: ITEM_READ,
      target: async () => doc.id,
      build: (_c, id) => ({ path: `/api/file/data/${id}` }),
    },
    {
      route: 'PUT /api/file/:id',
      label: 'move into inner',
      expect: ITEM_WRITE,
      changes: true,
      target: reusable(freshFile),
      build: (_c, id) => ({
        path: `/api/file/${id}`,
        json: { type: 'move', parentId: inner.id, encryptedKey: b64(48), keyNonce: b64(12) },
      }),
    },
    {
      route: 'POST /api/file/batch/move',
      expect: ITEM_WRITE,
      changes: true,
      target: reusable(freshFile),
      build: (_c, id) => ({
        path: '/api/file/batch/move',
        json: { parentId: inner.id, items: [{ id, encryptedKey: b64(48), keyNonce: b64(12) }] },
        batch: true,
      }),
    },
    {
      route: 'POST /api/file/batch/delete',
      expect: ITEM_WRITE,
      changes: true,
      target: reusable(freshFile),
      build: (_c, id) => ({ path: '/api/file/batch/delete', json: { ids: [id] }, batch: true }),
    },
    {
      route: 'PUT /api/file/:id',
      label: 'rename',
      expect: ITEM_WRITE,
      changes: true,
      target: reusable(freshFile),
      build: (_c, id) => ({ path: `/api/file/${id}`, json: { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) } }),
    },
    {
      route: 'DELETE /api/file/:id',
      expect: ITEM_WRITE,
      changes: true,
      target: reusable(freshFile),
      build: (_c, id) => ({ path: `/api/file/${id}` }),
    },
    {
      route: 'POST /api/upload',
      label: 'a whole file',
      expect: ITEM_WRITE,
      changes: true,
      target: async () => W.id,
      build: async (_c, id) => {
        const made = await patternFile(W.key, id, 200, 4);
        return { path: '/api/upload', body: form({ metadata: JSON.stringify(made.meta), file: new Blob([made.cipher]) }) };
      },
    },
    {
      // The id is the parent's: a folder made in W, or under a parent that does not exist.
      route: 'POST /api/upload',
      label: 'a folder',
      expect: ITEM_WRITE,
      changes: true,
      target: async () => W.id,
      build: async (_c, id) => {
        const made = await folderMeta(W.key, id);
        return { path: '/api/upload', body: form({ metadata: JSON.stringify(made.meta) }) };
      },
    },

    // alice's own uploads in progress.
    {
      route: 'PUT /api/upload/:uploadId/part/:n',
      expect: OWNERS_ONLY,
      changes: true,
      target: uploadPart,
      build: (_c, id) => {
        const bytes = firstParts.get(id) ?? new Uint8Array(316);
        return {
          path: `/api/upload/${id}/part/0`,
          body: bytes,
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
        };
      },
    },
    {
      route: 'GET /api/upload/:uploadId',
      expect: OWNERS_ONLY,
      target: uploadPart,
      build: (_c, id) => ({ path: `/api/upload/${id}` }),
    },
    {
      route: 'POST /api/upload/:uploadId/complete',
      expect: OWNERS_ONLY,
      changes: true,
      target: reusable(() => startUpload(true)),
      build: (_c, id) => ({ path: `/api/upload/${id}/complete` }),
    },
    {
      route: 'DELETE /api/upload/:uploadId',
      expect: OWNERS_ONLY,
      changes: true,
      target: reusable(() => startUpload(false)),
      build: (_c, id) => ({ path: `/api/upload/${id}` }),
    },
    {
      // The owner of the tree may end anyone's upload in it; nobody else but its uploader.
      route: 'DELETE /api/upload/:uploadId',
      label: "the editor's upload into W",
      expect: full({ ...OWNERS_ONLY, editor: 'ok' }),
      changes: true,
      target: reusable(() => startUpload(false, editorUser)),
      build: (_c, id) => ({ path: `/api/upload/${id}` }),
    },
    { route: 'GET /api/uploads', expect: SIGNED_IN, build: () => ({ path: '/api/uploads' }) },

    // Sharing W.
    {
      route: 'POST /api/share',
      label: 'type link',
      expect: ITEM_SHARE,
      changes: true,
      target: async () => W.id,
      build: (_c, id) => ({ path: '/api/share', json: { type: 'link', id, expires: 0, edit: false } }),
    },
    {
      route: 'POST /api/share',
      label: 'type user',
      expect: ITEM_SHARE,
      changes: true,
      target: reusable(async () => (await folderIn()).id),
      build: async (_c, id) => {
        const item = folders.get(id) ?? { id, key: crypto.getRandomValues(new Uint8Array(32)), meta: {} };
        return {
          path: '/api/share',
          json: { type: 'user', id, userId: erin.id, edit: false, ...(await grant(alice, item, erin.id, false)) },
        };
      },
    },
    {
      route: 'PUT /api/share',
      label: 'type user',
      expect: ITEM_SHARE,
      changes: true,
      target: reusable(sharedWithErin),
      build: (_c, id) => ({
        path: '/api/share',
        json: { type: 'user', fileId: id, userId: erin.id, edit: true, signature: b64(64) },
      }),
    },
    {
      route: 'DELETE /api/shared',
      label: 'type user',
      expect: ITEM_SHARE,
      changes: true,
      target: reusable(sharedWithErin),
      build: (_c, id) => ({ path: '/api/shared', json: { type: 'user', fileId: id, userId: erin.id } }),
    },
    {
      route: 'PUT /api/share',
      label: 'type link',
      expect: ITEM_SHARE,
      changes: true,
      target: reusable(() => makeLink(alice, W)),
      randomId: newLinkId,
      build: (_c, id) => ({ path: '/api/share', json: { type: 'link', linkId: id, edit: true } }),
    },
    {
      route: 'DELETE /api/shared',
      label: 'type link',
      expect: ITEM_SHARE,
      changes: true,
      target: reusable(() => makeLink(alice, W)),
      randomId: newLinkId,
      build: (_c, id) => ({ path: '/api/shared', json: { type: 'link', linkId: id } }),
    },
    {
      route: 'GET /api/shared/:id/users',
      expect: ITEM_SHARE,
      target: async () => W.id,
      build: (_c, id) => ({ path: `/api/shared/${id}/users` }),
    },
    {
      route: 'GET /api/shared/:id/links',
      expect: ITEM_SHARE,
      target: async () => W.id,
      build: (_c, id) => ({ path: `/api/shared/${id}/links` }),
    },

    // Live updates: an upgrade over TCP to a listening app (101 when admitted).
    { route: 'GET /api/ws', expect: OWN_VIEW, build: () => ({ path: '/api/ws', upgrade: true }) },
  ];
}
