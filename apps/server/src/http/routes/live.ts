import { Elysia, t } from 'elysia';
import { DomainError } from '../../domain/errors.ts';
import { linkSubscriber, type FilesDeps } from '../../domain/files/index.ts';
import type { LiveAudience, LiveHub } from '../live/hub.ts';
import { refuseCrossOrigin } from '../plugins/origin-check.ts';
import { SIGN_IN_REQUIRED, type SessionPlugin } from '../plugins/session.ts';

/**
 * GET /api/ws: live updates (docs/protocol.md "Live updates"). The session cookie authenticates
 * a user's upgrade; `?linkId=` a link visitor's (with the link's access proof cookie when it has
 * a password), no session needed. Without either the answer is a plain 401 or 404, and no socket.
 */
export function liveRoutes(deps: { hub: LiveHub; session: SessionPlugin; files: FilesDeps; publicOrigin: string | undefined }) {
  const { hub } = deps;
  // Who each admitted upgrade is, from beforeHandle to open (same Request object).
  const admitted = new WeakMap<Request, LiveAudience>();
  return new Elysia({ name: 'live-routes' }).use(deps.session).ws('/api/ws', {
    query: t.Object({ linkId: t.Optional(t.String({ maxLength: 64 })) }),
    async beforeHandle({ request, query, currentSession, linkProofOf, clientIp }) {
      refuseCrossOrigin(request, deps.publicOrigin);
      if (query.linkId !== undefined) {
        const subscription = await linkSubscriber(deps.files, query.linkId, linkProofOf(request, query.linkId));
        admitted.set(request, { kind: 'link', address: clientIp, ...subscription });
        return;
      }
      const found = await currentSession();
      if (!found || found.session.totpPending) throw new DomainError('UNAUTHORIZED', SIGN_IN_REQUIRED);
      admitted.set(request, {
        kind: 'user',
        userId: found.user.id,
        sessionId: found.session.id,
        sessionExpiresAt: found.session.expiresAt,
      });
    },
    open(ws) {
      const audience = admitted.get(ws.data.request);
      if (!audience) return void ws.raw.close(1011, 'Not admitted');
      hub.attach(ws.raw, audience);
    },
    message(ws, message) {
      hub.receive(ws.raw, message);
    },
    close(ws) {
      hub.detach(ws.raw);
    },
  });
}
