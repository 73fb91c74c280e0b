import { Elysia } from 'elysia';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Db } from '../ports/db.ts';
import type { EventBus } from '../ports/event-bus.ts';
import type { Logger } from '../ports/logger.ts';
import { bodyLimit } from './plugins/body-limit.ts';
import { errorMapping } from './plugins/error-mapping.ts';
import { requestLog } from './plugins/request-log.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { staticWeb } from './plugins/static-web.ts';
import { healthRoutes } from './routes/health.ts';

export interface AppDeps {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  logger: Logger;
  web: { root: string };
  /** HSTS is only sent when the public origin is https (it would lock out plain-http setups). */
  publicOrigin: string | undefined;
  maxBodyBytes: number;
}

/**
 * The whole HTTP surface. Cross-cutting plugins first (their hooks are global), then one
 * routes module per domain, then the web app's catch-all last.
 */
export function createApp(deps: AppDeps) {
  return new Elysia({ name: 'sealbox' })
    .use(securityHeaders({ hsts: deps.publicOrigin?.startsWith('https://') ?? false }))
    .use(requestLog(deps.logger))
    .use(errorMapping(deps.logger))
    .use(bodyLimit({ maxBodyBytes: deps.maxBodyBytes }))
    .use(healthRoutes(deps))
    .use(staticWeb(deps.web));
}

export type App = ReturnType<typeof createApp>;
