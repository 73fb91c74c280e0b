import { Elysia } from 'elysia';
import {
  changeItem,
  deleteBatch,
  deleteOrTrash,
  moveBatch,
  listFiles,
  openFileData,
  treeVersionOf,
  ownTreePage,
  RangeNotSatisfiableError,
  type FileData,
  type FilesDeps,
} from '../../domain/files/index.ts';
import type { ListingCache } from '../listing-cache/listing-cache.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { BatchDeleteBody, BatchMoveBody, ChangeBody, ItemParams, LinkOnlyQuery, ListQuery, TreeQuery } from './file-schemas.ts';

/**
 * The answer to a GET of ciphertext (a file's, a version's): 200 whole or 206 one range, 416 with
 * the size for a range past the end.
 */
export async function dataResponse(opening: Promise<FileData>, set: { headers: Record<string, unknown> }): Promise<Response> {
  const data = await opening.catch((error: unknown) => {
    if (error instanceof RangeNotSatisfiableError) set.headers['content-range'] = `bytes */${error.size}`;
    throw error;
  });
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    // Never rendered as a page, whatever a browser guesses (docs/protocol.md "Threat table").
    'content-disposition': 'attachment',
    'accept-ranges': 'bytes',
    'content-length': String(data.length),
  };
  if (data.range) headers['content-range'] = `bytes ${data.range.start}-${data.range.end}/${data.size}`;
  Object.assign(set.headers, headers);
  return new Response(data.stream, { status: data.range ? 206 : 200, headers });
}

/** Listing, download, rename/move and delete of items (docs/protocol.md "Files and uploads"). */
export function fileRoutes(deps: { files: FilesDeps; session: SessionPlugin; listingCache?: ListingCache }) {
  const { files } = deps;
  return (
    new Elysia({ name: 'file-routes' })
      .use(deps.session)
      .get(
        '/api/file',
        async ({ query, principal }) => {
          const options = {
            id: query.id,
            depth: query.depth,
            limit: query.limit,
            offset: query.offset,
            includeAncestors: query.includeAncestors,
          };
          // Kept answers only where this instance is the only one (app.ts); else always made afresh.
          return deps.listingCache ? deps.listingCache.serve(files, principal, options) : listFiles(files, principal, options);
        },
        { query: ListQuery, principal: true },
      )
      // The owner's tree version, for the browser's search index (docs/protocol.md "Tree version").
      .get('/api/file/tree-version', ({ user }) => treeVersionOf(files, user.id), { session: true })
      // The own tree a page at a time, for the search index's rebuild (docs/protocol.md "Tree version").
      .get('/api/file/tree', ({ user, query }) => ownTreePage(files, user.id, query), { session: true, query: TreeQuery })
      .get(
        '/api/file/data/:id',
        ({ params, request, principal, set }) =>
          dataResponse(openFileData(files, principal, params.id, request.headers.get('range')), set),
        { params: ItemParams, query: LinkOnlyQuery, principal: true },
      )
      .put('/api/file/:id', ({ params, body, principal }) => changeItem(files, principal, params.id, body), {
        params: ItemParams,
        query: LinkOnlyQuery,
        body: ChangeBody,
        principal: true,
      })
      // Many items in one call, each answered (docs/protocol.md "Batch changes").
      .post(
        '/api/file/batch/delete',
        async ({ body, principal }) => ({ results: await deleteBatch(files, principal, body.ids) }),
        {
          query: LinkOnlyQuery,
          body: BatchDeleteBody,
          principal: true,
        },
      )
      .post(
        '/api/file/batch/move',
        async ({ body, principal }) => ({ results: await moveBatch(files, principal, body.parentId, body.items) }),
        { query: LinkOnlyQuery, body: BatchMoveBody, principal: true },
      )
      .delete(
        '/api/file/:id',
        async ({ params, principal, set }) => {
          await deleteOrTrash(files, principal, params.id);
          set.status = 204;
        },
        { params: ItemParams, query: LinkOnlyQuery, principal: true },
      )
  );
}
