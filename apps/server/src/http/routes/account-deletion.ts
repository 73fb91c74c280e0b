import { Elysia } from 'elysia';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { deleteAccount } from '../../domain/accounts/deletion.ts';
import type { FilesPorts } from '../../domain/files/index.ts';
import { clearedSessionCookie, type CookieSettings } from '../cookies.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { DeleteAccountBody } from './schemas.ts';

export interface AccountDeletionRoutesDeps {
  accounts: AccountsDeps;
  files: FilesPorts;
  session: SessionPlugin;
  cookies: CookieSettings;
  /** Told of each account's item removal as it starts (tests wait on it); the answer never waits. */
  onPurge?: ((purged: Promise<void>) => void) | undefined;
}

/** POST /api/account/delete (docs/protocol.md "Deleting an account"). */
export function accountDeletionRoutes(deps: AccountDeletionRoutesDeps) {
  return new Elysia({ name: 'account-deletion-routes' }).use(deps.session).post(
    '/api/account/delete',
    async ({ body, user, session, clientIp, set }) => {
      const { purged } = await deleteAccount(deps, { user, sessionId: session.id, clientIp }, body);
      deps.onPurge?.(purged);
      set.headers['set-cookie'] = clearedSessionCookie(deps.cookies);
      set.status = 204;
    },
    { body: DeleteAccountBody, session: true },
  );
}
