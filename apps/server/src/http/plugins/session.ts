import { Elysia } from 'elysia';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { resolveSession, SESSION_LIFETIME_MS, type ActiveSession } from '../../domain/accounts/sessions.ts';
import { DomainError } from '../../domain/errors.ts';
import { linkPrincipal, type FilesDeps, type Principal } from '../../domain/files/index.ts';
import { clientIp, type IpSource } from '../client-ip.ts';
import { linkProofCookieName, readCookie, SESSION_COOKIE, sessionCookie, type CookieSettings } from '../cookies.ts';

export const SIGN_IN_REQUIRED = 'Sign in first.';

export interface SessionPluginOptions {
  accounts: AccountsDeps;
  /** Resolves `?linkId=` holders (their link and its access proof). */
  files: FilesDeps;
  cookies: CookieSettings;
  trustProxy: boolean;
}

/** What the hooks of one request see of it (parse hooks get no derived values). */
interface RequestContext {
  request: Request;
  set: { headers: Record<string, unknown> };
  query: Record<string, unknown>;
  server: IpSource | null;
}

/**
 * Who is calling, decided before anything reads the request body. Routes say `{ session: true }`
 * (a signed-in user: `user`, `session`) or `{ principal: true }` (the files calls, which a link
 * holder may also make: `principal`). Both check in the parse hook, so a caller who may not make
 * the call gets 401 before its body is read or validated, and again in transform for calls
 * without a parse phase. Public routes never look at the session: a half-logged-in
 * (totp_pending) browser can still read avatars and check names. Every handler also gets
 * `clientIp`, the raw `sessionToken` and `currentSession()` (at most one query per request).
 */
/**
 * The hooks of a macro that decides who is calling: `lookup` runs in parse, so a caller who may not
 * make the call is refused before the body is read, and again in transform for calls without a
 * parse phase (it is settled once per request); the handler gets what `expose` makes of it.
 */
function checkedBeforeBody<C, T, R>(lookup: (context: C) => Promise<T>, expose: (found: T) => R) {
  return {
    async parse(context: C) {
      await lookup(context);
    },
    async transform(context: C) {
      await lookup(context);
    },
    async resolve(context: C) {
      return expose(await lookup(context));
    },
  };
}

export function sessionPlugin(options: SessionPluginOptions) {
  const sessions = new WeakMap<Request, Promise<ActiveSession | null>>();
  const principals = new WeakMap<Request, Promise<Principal>>();

  const tokenOf = (request: Request) => readCookie(request.headers.get('cookie'), SESSION_COOKIE);
  const linkProofOf = (request: Request, linkId: string) =>
    readCookie(request.headers.get('cookie'), linkProofCookieName(linkId));

  const sessionOf = ({ request, set }: Pick<RequestContext, 'request' | 'set'>): Promise<ActiveSession | null> => {
    const token = tokenOf(request);
    if (token === undefined) return Promise.resolve(null);
    let found = sessions.get(request);
    if (!found) {
      found = resolveSession(options.accounts, token).then((active) => {
        // Sliding expiry: the browser's cookie moves forward with the server's record.
        if (active?.extended) set.headers['set-cookie'] = sessionCookie(token, SESSION_LIFETIME_MS, options.cookies);
        return active;
      });
      sessions.set(request, found);
    }
    return found;
  };

  const signedInOf = async (context: Pick<RequestContext, 'request' | 'set'>): Promise<ActiveSession> => {
    const found = await sessionOf(context);
    if (!found || found.session.totpPending) throw new DomainError('UNAUTHORIZED', SIGN_IN_REQUIRED);
    return found;
  };

  /**
   * The signed-in user, or the holder of `linkId` (with the link's access proof cookie when it
   * has a password). A link that is missing, expired, malformed or lacks its proof answers 404
   * alike. A link holder needs no session; one who has a full session is recorded as uploader.
   */
  const principalOf = (context: RequestContext): Promise<Principal> => {
    let found = principals.get(context.request);
    if (!found) {
      found = (async (): Promise<Principal> => {
        const linkId = context.query.linkId;
        if (linkId !== undefined) {
          if (typeof linkId !== 'string') throw new DomainError('NOT_FOUND', 'Link not found');
          const active = tokenOf(context.request) === undefined ? null : await sessionOf(context).catch(() => null);
          const userId = active && !active.session.totpPending ? active.user.id : null;
          const address = clientIp(context.request, context.server, options.trustProxy);
          return linkPrincipal(options.files, linkId, linkProofOf(context.request, linkId), { userId, address });
        }
        const { user } = await signedInOf(context);
        return { kind: 'user', userId: user.id };
      })();
      principals.set(context.request, found);
    }
    return found;
  };

  return new Elysia({ name: 'session' })
    .decorate('principalOf', principalOf)
    .decorate('linkProofOf', linkProofOf)
    .derive({ as: 'global' }, ({ request, server, set }) => ({
      clientIp: clientIp(request, server, options.trustProxy),
      sessionToken: tokenOf(request),
      currentSession: () => sessionOf({ request, set }),
    }))
    .macro({
      session: checkedBeforeBody(signedInOf, ({ user, session }) => ({ user, session })),
      principal: checkedBeforeBody(principalOf, (principal) => ({ principal })),
    });
}

export type SessionPlugin = ReturnType<typeof sessionPlugin>;
