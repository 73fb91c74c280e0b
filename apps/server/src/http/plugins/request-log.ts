import { Elysia } from 'elysia';
import type { Logger } from '../../ports/logger.ts';

/**
 * One line per request with method, route, status and duration only. The route is the pattern
 * that matched (`/api/users/search/:name`), never the path: paths carry searched names and
 * ids, query strings link ids. Bodies, cookies and headers are never read here, and fragments
 * never reach a server.
 */
export function requestLog(logger: Logger) {
  const startedAt = new WeakMap<Request, number>();
  return new Elysia({ name: 'request-log' })
    .onRequest(({ request }) => {
      startedAt.set(request, performance.now());
    })
    .onAfterResponse({ as: 'global' }, (context) => {
      const { request, set } = context;
      const response = (context as { responseValue?: unknown }).responseValue;
      const status = response instanceof Response ? response.status : statusNumber(set.status);
      const started = startedAt.get(request);
      logger.info('request', {
        method: request.method,
        route: routeOf(context),
        status,
        ms: started === undefined ? undefined : Math.round((performance.now() - started) * 10) / 10,
      });
    });
}

/** The pattern of the route that matched (`/api/shared/:id`), or 'unmatched'; never the path. */
export function routeOf(context: object): string {
  return (context as { route?: string }).route || 'unmatched';
}

function statusNumber(status: unknown): number {
  return typeof status === 'number' ? status : 200;
}
