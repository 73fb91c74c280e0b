import { Elysia, t } from 'elysia';
import { DomainError } from '../../domain/errors.ts';
import type { LiveHub } from '../live/hub.ts';
import { refuseCrossOrigin } from '../plugins/origin-check.ts';
import type { SessionPlugin } from '../plugins/session.ts';

/**
 * GET /api/ws: live updates for the signed-in user (docs/protocol.md "Live updates"). The
 * session cookie authenticates the upgrade; without one the answer is a plain 401 and no socket.
 */
export function liveRoutes(deps: { hub: LiveHub; session: SessionPlugin; publicOrigin: string | undefined }) {
  const { hub } = deps;
  return new Elysia({ name: 'live-routes' }).use(deps.session).ws('/api/ws', {
    session: true,
    query: t.Object({ linkId: t.Optional(t.String({ maxLength: 64 })) }),
    beforeHandle({ request, query }) {
      refuseCrossOrigin(request, deps.publicOrigin);
      // Link visitors will subscribe by linkId once links exist (sharing); none exists yet.
      if (query.linkId !== undefined) throw new DomainError('NOT_FOUND', 'Link not found');
    },
    open(ws) {
      const { user, session } = ws.data;
      hub.attach(ws.raw, { kind: 'user', userId: user.id, sessionId: session.id, sessionExpiresAt: session.expiresAt });
    },
    message(ws, message) {
      hub.receive(ws.raw, message);
    },
    close(ws) {
      hub.detach(ws.raw);
    },
  });
}
