import type { ServerWebSocket } from 'bun';
import { Elysia, status, t } from 'elysia';
import { DomainError } from '../../domain/errors.ts';
import { linkSubscriber, type FilesDeps } from '../../domain/files/index.ts';
import type { LiveAudience, LiveHub } from '../live/hub.ts';
import { refuseCrossOrigin } from '../plugins/origin-check.ts';
import { SIGN_IN_REQUIRED, type SessionPlugin } from '../plugins/session.ts';

/**
 * Elysia's text-frame parsing, as `.ws()` does it: what looks like JSON arrives parsed, anything
 * else as it came (the hub judges it: only `{"type":"ping"}` is understood).
 */
function parseFrame(message: string | Buffer): unknown {
  if (typeof message !== 'string') return message;
  const first = message.charCodeAt(0);
  if (first === 34 || first === 47 || first === 91 || first === 123) {
    try {
      return JSON.parse(message);
    } catch {
      return message;
    }
  }
  return message;
}

/**
 * GET /api/ws: live updates (docs/protocol.md "Live updates"). The session cookie authenticates
 * a user's upgrade; `?linkId=` a link visitor's (with the link's access proof cookie when it has
 * a password), no session needed. Without either the answer is a plain 401 or 404, and no socket.
 *
 * The upgrade is made here rather than with Elysia's `.ws()`, which keeps the whole request
 * context (the Request, its headers, cookie jar, derived values) and seven closures alive for as
 * long as each socket lives. Here a socket's `data` is one small object whose handlers are shared
 * on its prototype; Elysia's own Bun websocket handler calls them (`ws.data.open(ws)`, ...).
 */
export function liveRoutes(deps: { hub: LiveHub; session: SessionPlugin; files: FilesDeps; publicOrigin: string | undefined }) {
  const { hub } = deps;
  /** A socket's `ws.data`: who it is until it opens, then nothing (the hub keeps the audience). */
  class Connection {
    constructor(public audience: LiveAudience | undefined) {}
    open(ws: ServerWebSocket<Connection>): void {
      const audience = this.audience;
      this.audience = undefined;
      if (!audience) return void ws.close(1011, 'Not admitted');
      hub.attach(ws, audience);
    }
    message(ws: ServerWebSocket<Connection>, message: string | Buffer): void {
      hub.receive(ws, parseFrame(message));
    }
    close(ws: ServerWebSocket<Connection>): void {
      hub.detach(ws);
    }
  }
  return new Elysia({ name: 'live-routes' }).use(deps.session).get(
    '/api/ws',
    async ({ request, query, server, set, currentSession, linkProofOf, clientIp }) => {
      refuseCrossOrigin(request, deps.publicOrigin);
      let audience: LiveAudience;
      if (query.linkId !== undefined) {
        const subscription = await linkSubscriber(deps.files, query.linkId, linkProofOf(request, query.linkId));
        audience = { kind: 'link', address: clientIp, ...subscription };
      } else {
        const found = await currentSession();
        if (!found || found.session.totpPending) throw new DomainError('UNAUTHORIZED', SIGN_IN_REQUIRED);
        audience = {
          kind: 'user',
          userId: found.user.id,
          sessionId: found.session.id,
          sessionExpiresAt: found.session.expiresAt,
        };
      }
      // The answer's headers (security headers, a slid session cookie) go on the 101 as they would on any answer.
      const headers = Object.keys(set.headers).length > 0 ? (set.headers as Record<string, string>) : undefined;
      if (server?.upgrade(request, { headers, data: new Connection(audience) })) return;
      return status(400, 'Expected a websocket connection');
    },
    { query: t.Object({ linkId: t.Optional(t.String({ maxLength: 64 })) }) },
  );
}
