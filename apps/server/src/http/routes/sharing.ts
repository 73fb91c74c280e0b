import { Elysia } from 'elysia';
import {
  accessList,
  changeLink,
  changeUserShare,
  createLink,
  deleteLink,
  linkInfo,
  linksOf,
  openLink,
  removeUserShare,
  sharedWithMe,
  shareWithUser,
  type FilesDeps,
} from '../../domain/files/index.ts';
import { linkProofCookie, type CookieSettings } from '../cookies.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { ChangeShareBody, OpenLinkBody, RevokeBody, ShareBody, SharedParams, SharedQuery } from './share-schemas.ts';

/** GET /api/shared's `nextOffset`, for a client that does not read the body itself. */
export const NEXT_OFFSET_HEADER = 'sealbox-next-offset';

/**
 * Sharing with users and by links (docs/protocol.md "HTTP endpoints" and "Sharing"). Everything but
 * the two link calls needs a session; those two are how an anonymous visitor opens a link.
 */
export function sharingRoutes(deps: { files: FilesDeps; session: SessionPlugin; cookies: CookieSettings }) {
  const { files } = deps;
  return new Elysia({ name: 'sharing-routes' })
    .use(deps.session)
    .post(
      '/api/share',
      async ({ body, user, set }) => {
        const created = body.type === 'user' ? await shareWithUser(files, user.id, body) : await createLink(files, user.id, body);
        set.status = 201;
        return created;
      },
      { body: ShareBody, session: true },
    )
    .put(
      '/api/share',
      async ({ body, user }) =>
        body.type === 'user' ? await changeUserShare(files, user.id, body) : await changeLink(files, user.id, body),
      { body: ChangeShareBody, session: true },
    )
    .get(
      '/api/shared',
      async ({ query, user, set }) => {
        const page = await sharedWithMe(files, user.id, query);
        // Also as a header: the web app hands the body to its crypto worker unread.
        if (page.nextOffset !== null) set.headers[NEXT_OFFSET_HEADER] = String(page.nextOffset);
        return page;
      },
      { query: SharedQuery, session: true },
    )
    .delete(
      '/api/shared',
      async ({ body, user, set }) => {
        if (body.type === 'user') await removeUserShare(files, user.id, body);
        else await deleteLink(files, user.id, body.linkId);
        set.status = 204;
      },
      { body: RevokeBody, session: true },
    )
    .get('/api/shared/:id/users', async ({ params, user }) => await accessList(files, user.id, params.id), {
      params: SharedParams,
      session: true,
    })
    .get('/api/shared/:id/links', async ({ params, user }) => await linksOf(files, user.id, params.id), {
      params: SharedParams,
      session: true,
    })
    .get(
      '/api/shared/:id',
      async ({ params, request, linkProofOf }) => await linkInfo(files, params.id, linkProofOf(request, params.id)),
      {
        params: SharedParams,
      },
    )
    .post(
      '/api/shared/:id',
      async ({ params, body, clientIp, set }) => {
        const opened = await openLink(files, params.id, body.password, clientIp);
        if (opened.proof)
          set.headers['set-cookie'] = linkProofCookie(
            opened.info.linkId,
            opened.proof.value,
            opened.proof.maxAgeMs,
            deps.cookies,
          );
        return opened.info;
      },
      { params: SharedParams, body: OpenLinkBody },
    );
}
