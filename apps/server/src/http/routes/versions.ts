import { Elysia } from 'elysia';
import { deleteVersion, listVersions, openVersionData, restoreVersion, type FilesDeps } from '../../domain/files/index.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { ItemParams, LinkOnlyQuery, VersionParams } from './file-schemas.ts';
import { dataResponse } from './files.ts';

/**
 * A file's earlier versions (docs/protocol.md "Versions"). A new version is uploaded with
 * POST /api/upload and `versionOf` (routes/uploads.ts).
 */
export function versionRoutes(deps: { files: FilesDeps; session: SessionPlugin }) {
  const { files } = deps;
  return new Elysia({ name: 'version-routes' })
    .use(deps.session)
    .get('/api/file/:id/versions', ({ params, principal }) => listVersions(files, principal, params.id), {
      params: ItemParams,
      query: LinkOnlyQuery,
      principal: true,
    })
    .get(
      '/api/file/:id/versions/:versionId/data',
      ({ params, request, principal, set }) =>
        dataResponse(openVersionData(files, principal, params.id, params.versionId, request.headers.get('range')), set),
      { params: VersionParams, query: LinkOnlyQuery, principal: true },
    )
    .post(
      '/api/file/:id/versions/:versionId/restore',
      ({ params, principal }) => restoreVersion(files, principal, params.id, params.versionId),
      { params: VersionParams, query: LinkOnlyQuery, principal: true },
    )
    .delete(
      '/api/file/:id/versions/:versionId',
      async ({ params, principal, set }) => {
        await deleteVersion(files, principal, params.id, params.versionId);
        set.status = 204;
      },
      { params: VersionParams, query: LinkOnlyQuery, principal: true },
    );
}
