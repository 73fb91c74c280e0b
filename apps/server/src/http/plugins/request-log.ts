import { Elysia } from 'elysia';
import type { Logger } from '../../ports/logger.ts';

/**
 * One line per request with method, path, status and duration only. The query string is cut
 * (it can carry link ids and search terms); bodies, cookies and headers are never read here,
 * and fragments never reach a server.
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
        path: new URL(request.url).pathname,
        status,
        ms: started === undefined ? undefined : Math.round((performance.now() - started) * 10) / 10,
      });
    });
}

function statusNumber(status: unknown): number {
  return typeof status === 'number' ? status : 200;
}
