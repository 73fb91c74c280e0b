import { Elysia } from 'elysia';
import { blockAccount, listBlocks, unblockAccount, type FilesDeps } from '../../domain/files/index.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { BlockParams } from './share-schemas.ts';

/** Accounts the caller does not want shares from (docs/protocol.md "Blocked accounts"). */
export function blockRoutes(deps: { files: FilesDeps; session: SessionPlugin }) {
  const { files } = deps;
  return new Elysia({ name: 'block-routes' })
    .use(deps.session)
    .get('/api/blocks', ({ user }) => listBlocks(files, user.id), { session: true })
    .put(
      '/api/blocks/:userId',
      async ({ params, user, set }) => {
        await blockAccount(files, user.id, params.userId);
        set.status = 204;
      },
      { params: BlockParams, session: true },
    )
    .delete(
      '/api/blocks/:userId',
      async ({ params, user, set }) => {
        await unblockAccount(files, user.id, params.userId);
        set.status = 204;
      },
      { params: BlockParams, session: true },
    );
}
