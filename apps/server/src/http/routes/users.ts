import { Elysia } from 'elysia';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { findPublicUser, loginLookup, searchUsers, SEARCH_MAX_RESULTS } from '../../domain/accounts/users.ts';
import { DomainError } from '../../domain/errors.ts';
import { SIGN_IN_REQUIRED, type SessionPlugin } from '../plugins/session.ts';
import { IdParams, SearchParams, SearchQuery } from './schemas.ts';

/** User lookup and search (docs/product.md "Roles" and "Limits"). */
export function userRoutes(deps: { accounts: AccountsDeps; session: SessionPlugin }) {
  const { accounts } = deps;
  return new Elysia({ name: 'user-routes' })
    .use(deps.session)
    .get(
      '/api/users/search/:name',
      async ({ params, query, clientIp, currentSession }) => {
        // limit=1 is the login page's lookup (docs/product.md "Limits"), open to anyone; any other
        // limit is the share dialog's search, for signed-in users only.
        if (query.limit === 1) return loginLookup(accounts, params.name, clientIp);
        const found = await currentSession();
        if (!found || found.session.totpPending) throw new DomainError('UNAUTHORIZED', SIGN_IN_REQUIRED);
        return searchUsers(accounts, { userId: found.user.id, clientIp }, params.name, {
          limit: query.limit ?? SEARCH_MAX_RESULTS,
          offset: query.offset ?? 0,
        });
      },
      { params: SearchParams, query: SearchQuery },
    )
    .get('/api/user/:id', ({ params }) => findPublicUser(accounts, params.id), { params: IdParams, session: true });
}
