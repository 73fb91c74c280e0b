import { Elysia } from 'elysia';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { endSession, listSessions } from '../../domain/accounts/sessions.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { IdParams } from './schemas.ts';

/** A user's signed-in browsers, and ending one of them. */
export function sessionRoutes(deps: { accounts: AccountsDeps; session: SessionPlugin }) {
  const { accounts } = deps;
  return new Elysia({ name: 'session-routes' })
    .use(deps.session)
    .get('/api/sessions', ({ user, session }) => listSessions(accounts, user.id, session.id), { session: true })
    .delete(
      '/api/session/:id',
      async ({ params, user, set }) => {
        await endSession(accounts, user.id, params.id);
        set.status = 204;
      },
      { params: IdParams, session: true },
    );
}
