import { Elysia } from 'elysia';
import { deleteForever, emptyTrash, listTrash, restoreItem, type FilesDeps } from '../../domain/files/index.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { ItemParams, RestoreBody, TrashQuery } from './file-schemas.ts';

/** The caller's trash (docs/protocol.md "Trash"): only its owner sees or changes it. */
export function trashRoutes(deps: { files: FilesDeps; session: SessionPlugin }) {
  const { files } = deps;
  return new Elysia({ name: 'trash-routes' })
    .use(deps.session)
    .get('/api/trash', ({ query, user }) => listTrash(files, user.id, { limit: query.limit ?? 100, offset: query.offset ?? 0 }), {
      query: TrashQuery,
      session: true,
    })
    .post('/api/trash/:id/restore', ({ params, body, user }) => restoreItem(files, user.id, params.id, body.to), {
      params: ItemParams,
      body: RestoreBody,
      session: true,
    })
    .delete(
      '/api/trash/:id',
      async ({ params, user, set }) => {
        await deleteForever(files, user.id, params.id);
        set.status = 204;
      },
      { params: ItemParams, session: true },
    )
    .delete('/api/trash', async ({ user }) => ({ emptied: await emptyTrash(files, user.id) }), { session: true });
}
