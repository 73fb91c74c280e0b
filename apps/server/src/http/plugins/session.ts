import { Elysia } from 'elysia';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { resolveSession, SESSION_LIFETIME_MS, type ActiveSession } from '../../domain/accounts/sessions.ts';
import { DomainError } from '../../domain/errors.ts';
import { clientIp } from '../client-ip.ts';
import { readCookie, SESSION_COOKIE, sessionCookie, type CookieSettings } from '../cookies.ts';

/** The only calls a half-logged-in (totp_pending) session may make (docs/protocol.md). */
const PENDING_ALLOWED = new Set(['POST /api/login', 'POST /api/logout', 'GET /api/health']);

export const SIGN_IN_REQUIRED = 'Sign in first.';

export interface SessionPluginOptions {
  accounts: AccountsDeps;
  cookies: CookieSettings;
  trustProxy: boolean;
}

/**
 * Gives every handler `clientIp`, the raw `sessionToken` and `currentSession()` (resolved at most
 * once per request, and only when asked, so static files cost no query). Routes that need a
 * signed-in user say `{ session: true }` and get `user` and `session`. A totp_pending session
 * is refused (401) on every API call except login and logout, whether the route needs a
 * session or not.
 */
export function sessionPlugin(options: SessionPluginOptions) {
  return new Elysia({ name: 'session' })
    .derive({ as: 'global' }, ({ request, server, set }) => {
      const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
      let active: Promise<ActiveSession | null> | undefined;
      const currentSession = (): Promise<ActiveSession | null> => {
        if (token === undefined) return Promise.resolve(null);
        active ??= resolveSession(options.accounts, token).then((found) => {
          // Sliding expiry: the browser's cookie moves forward with the server's record.
          if (found?.extended) set.headers['set-cookie'] = sessionCookie(token, SESSION_LIFETIME_MS, options.cookies);
          return found;
        });
        return active;
      };
      return { clientIp: clientIp(request, server, options.trustProxy), sessionToken: token, currentSession };
    })
    .onBeforeHandle({ as: 'global' }, async ({ request, sessionToken, currentSession }) => {
      if (sessionToken === undefined) return;
      const path = new URL(request.url).pathname;
      if (!path.startsWith('/api/') || PENDING_ALLOWED.has(`${request.method} ${path}`)) return;
      const found = await currentSession();
      if (found?.session.totpPending) throw new DomainError('UNAUTHORIZED', 'Enter the TOTP code from your authenticator app');
    })
    .macro({
      session: {
        // transform runs before the body is validated: without a session the answer is 401,
        // never a 400 that would tell an anonymous caller what the body should look like.
        async transform({ currentSession }) {
          await signedIn(currentSession);
        },
        async resolve({ currentSession }) {
          const { user, session } = await signedIn(currentSession);
          return { user, session };
        },
      },
    });
}

async function signedIn(currentSession: () => Promise<ActiveSession | null>): Promise<ActiveSession> {
  const found = await currentSession();
  if (!found || found.session.totpPending) throw new DomainError('UNAUTHORIZED', SIGN_IN_REQUIRED);
  return found;
}

export type SessionPlugin = ReturnType<typeof sessionPlugin>;
