import { Elysia } from 'elysia';
import { createRateLimiter, DEFAULT_RATE_LIMITS, type RateLimits } from '../domain/accounts/rate-limits.ts';
import type { AccountsDeps } from '../domain/accounts/deps.ts';
import type { FilesDeps } from '../domain/files/index.ts';
import { createFilesStore } from '../infra/db/files/files-store.ts';
import type { AccountRepositories } from '../ports/accounts.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Db } from '../ports/db.ts';
import type { EventBus } from '../ports/event-bus.ts';
import type { FilesStore } from '../ports/files.ts';
import type { Logger } from '../ports/logger.ts';
import { bodyLimit } from './plugins/body-limit.ts';
import { errorMapping } from './plugins/error-mapping.ts';
import { originCheck } from './plugins/origin-check.ts';
import { requestLog } from './plugins/request-log.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { staticWeb } from './plugins/static-web.ts';
import { accountRoutes } from './routes/accounts.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { profileRoutes } from './routes/profile.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { userRoutes } from './routes/users.ts';

export interface AppDeps {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  logger: Logger;
  web: { root: string };
  /** HSTS is only sent when the public origin is https (it would lock out plain-http setups). */
  publicOrigin: string | undefined;
  maxBodyBytes: number;
  /** Users, sessions and rate-limit counters over `db` (infra/db/accounts). */
  accounts: AccountRepositories;
  /** total_space of a new account. */
  defaultQuotaBytes: number;
  /** Take the client address from X-Forwarded-For (set behind a reverse proxy only). */
  trustProxy: boolean;
  /** Defaults to DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimits;
  /** Epoch milliseconds; defaults to Date.now. */
  clock?: () => number;
  /** Items, parts and uploads over `db` (infra/db/files); defaults to one over deps.db. */
  files?: FilesStore;
  /** MAX_FILE_BYTES (largest plaintext of a file); defaults to 1 GiB. */
  maxFileBytes?: number;
}

/**
 * The whole HTTP surface. Cross-cutting plugins first (their hooks are global), then one
 * routes module per domain, then the web app's catch-all last.
 */
export function createApp(deps: AppDeps) {
  const https = deps.publicOrigin?.startsWith('https://') ?? false;
  const clock = deps.clock ?? Date.now;
  const accounts: AccountsDeps = {
    ...deps.accounts,
    blobs: deps.blobs,
    clock,
    defaultQuotaBytes: deps.defaultQuotaBytes,
    limiter: createRateLimiter({ rateLimits: deps.accounts.rateLimits, limits: deps.rateLimits ?? DEFAULT_RATE_LIMITS, clock }),
  };
  const files: FilesDeps = {
    store: deps.files ?? createFilesStore(deps.db),
    blobs: deps.blobs,
    logger: deps.logger,
    clock,
    maxFileBytes: deps.maxFileBytes ?? 1024 ** 3,
  };
  const cookies = { secure: https };
  // One instance shared by every routes module, so its hooks run once per request.
  const session = sessionPlugin({ accounts, cookies, trustProxy: deps.trustProxy });
  return new Elysia({ name: 'sealbox' })
    .use(securityHeaders({ hsts: https }))
    .use(requestLog(deps.logger))
    .use(errorMapping(deps.logger))
    .use(originCheck({ publicOrigin: deps.publicOrigin }))
    .use(bodyLimit({ maxBodyBytes: deps.maxBodyBytes }))
    .use(healthRoutes(deps))
    .use(session)
    .use(accountRoutes({ accounts, session, cookies }))
    .use(userRoutes({ accounts, session }))
    .use(profileRoutes({ accounts, session }))
    .use(sessionRoutes({ accounts, session }))
    .use(fileRoutes({ files, session }))
    .use(uploadRoutes({ files, session }))
    .use(staticWeb(deps.web));
}

export type App = ReturnType<typeof createApp>;
