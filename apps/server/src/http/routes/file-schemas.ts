import { t } from 'elysia';
import {
  BATCH_MAX,
  MAX_DEPTH,
  MAX_LIMIT,
  TRASH_PAGE_MAX,
  TREE_PAGE_MAX,
  UNFINISHED_MAX_LIMIT,
} from '../../domain/files/index.ts';

/**
 * Shapes of the files and uploads calls (docs/protocol.md "Files and uploads"). Lengths here
 * only cap sizes; the files domain checks ids, base64 lengths and sizes precisely.
 */
const text = (maxLength: number) => t.String({ maxLength });

/** Every files call takes an optional linkId (link holders act with the link's permission). */
const LinkQuery = { linkId: t.Optional(text(128)) };

export const ListQuery = t.Object({
  ...LinkQuery,
  id: t.Optional(text(64)),
  depth: t.Optional(t.Integer({ minimum: 1, maximum: MAX_DEPTH })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_LIMIT })),
  offset: t.Optional(t.Integer({ minimum: 0 })),
  includeAncestors: t.Optional(t.Boolean()),
});

export const LinkOnlyQuery = t.Object(LinkQuery);

/** GET /api/file/tree: a page of the own tree (the domain checks the cursor precisely). */
export const TreeQuery = t.Object({
  after: t.Optional(text(80)),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: TREE_PAGE_MAX })),
});

/** GET /api/uploads: a page of the caller's unfinished uploads (the domain checks the bounds too). */
export const UnfinishedQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: UNFINISHED_MAX_LIMIT })),
  offset: t.Optional(t.Integer({ minimum: 0 })),
});

export const ItemParams = t.Object({ id: text(64) });
export const VersionParams = t.Object({ id: text(64), versionId: text(64) });
export const UploadParams = t.Object({ uploadId: text(64) });
export const PartParams = t.Object({ uploadId: text(64), n: text(16) });

export const ChangeBody = t.Union([
  t.Object({ type: t.Literal('rename'), encryptedName: text(8192), nameNonce: text(64) }, { additionalProperties: false }),
  t.Object(
    { type: t.Literal('move'), parentId: t.Union([text(64), t.Null()]), encryptedKey: text(128), keyNonce: text(64) },
    { additionalProperties: false },
  ),
]);

/** POST /api/file/batch/delete: the items, each once (the domain checks the count and repeats). */
export const BatchDeleteBody = t.Object({ ids: t.Array(text(64), { maxItems: BATCH_MAX }) }, { additionalProperties: false });

/** POST /api/file/batch/move: where to, and each item's K wrapped for it. */
export const BatchMoveBody = t.Object(
  {
    parentId: t.Union([text(64), t.Null()]),
    items: t.Array(t.Object({ id: text(64), encryptedKey: text(128), keyNonce: text(64) }, { additionalProperties: false }), {
      maxItems: BATCH_MAX,
    }),
  },
  { additionalProperties: false },
);

/** `metadata` is JSON text (the domain parses it strictly); `file` the whole ciphertext. */
export const UploadBody = t.Object({
  metadata: text(64 * 1024),
  file: t.Optional(t.File()),
});

export const CreatedItem = t.Object({ id: t.String(), size: t.Number(), link: t.String() });

/** GET /api/trash (domain/files/trash.ts). */
export const TrashQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: TRASH_PAGE_MAX })),
  offset: t.Optional(t.Integer({ minimum: 0 })),
});

/** POST /api/trash/{id}/restore: `to` only where its folder is gone (the top level, re-wrapped). */
export const RestoreBody = t.Object(
  { to: t.Optional(t.Object({ encryptedKey: text(128), keyNonce: text(64) }, { additionalProperties: false })) },
  { additionalProperties: false },
);
