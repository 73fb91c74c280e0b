import { Elysia } from 'elysia';
import { createRateLimiter, DEFAULT_RATE_LIMITS, type RateLimits } from '../domain/accounts/rate-limits.ts';
import type { AccountsDeps } from '../domain/accounts/deps.ts';
import { createQuota, DEFAULT_MAX_ITEMS_PER_USER, linkState, type FilesDeps } from '../domain/files/index.ts';
import type { AccountRepositories } from '../ports/accounts.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Db } from '../ports/db.ts';
import type { EventBus } from '../ports/event-bus.ts';
import type { FilesStore } from '../ports/files.ts';
import type { QuotaStore } from '../ports/files/quota.ts';
import type { Logger } from '../ports/logger.ts';
import { createListingCache, type ListingCache } from './listing-cache/listing-cache.ts';
import { createLiveHub, type LiveHub } from './live/hub.ts';
import { BACKPRESSURE_LIMIT_BYTES, MAX_CLIENT_MESSAGE_BYTES } from './live/protocol.ts';
import { bodyLimit } from './plugins/body-limit.ts';
import { errorMapping } from './plugins/error-mapping.ts';
import { jsonDepth } from './plugins/json-depth.ts';
import { originCheck } from './plugins/origin-check.ts';
import { requestLog } from './plugins/request-log.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { staticWeb } from './plugins/static-web.ts';
import { accountDeletionRoutes } from './routes/account-deletion.ts';
import { trashRoutes } from './routes/trash.ts';
import { versionRoutes } from './routes/versions.ts';
import { accountRoutes } from './routes/accounts.ts';
import { blockRoutes } from './routes/blocks.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { liveRoutes } from './routes/live.ts';
import { profileRoutes } from './routes/profile.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { sharingRoutes } from './routes/sharing.ts';
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
  /** The wait of a slowed-down login (rate-limits.ts); defaults to Bun.sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** Items, parts, uploads, sharing, blocks and links over `db` (infra/db/files). */
  files: FilesStore;
  /** Users' space over `db` (infra/db/files/quota-store.ts), for domain/files/quota.ts alone. */
  quota: QuotaStore;
  /** MAX_FILE_BYTES (largest plaintext of a file); defaults to 1 GiB. */
  maxFileBytes?: number;
  /** MAX_ITEMS_PER_USER; defaults to DEFAULT_MAX_ITEMS_PER_USER. */
  maxItemsPerUser?: number;
  /** MAX_UNFINISHED_BYTES_PER_LINK and _PER_UPLOADER; each defaults to twice maxFileBytes. */
  maxUnfinishedBytes?: { perLink: number; perUploader: number };
  /** Live-update sockets over `events`; the server passes its own so it can close them on stop. */
  live?: LiveHub;
  /** TRASH_RETENTION_DAYS in ms; 0 or unset: no trash, deletes are for good at once. */
  trashRetentionMs?: number;
  /** MAX_VERSIONS and VERSION_RETENTION_DAYS in ms; unset: their defaults (domain/files/versions.ts). */
  maxVersions?: number | undefined;
  versionRetentionMs?: number | undefined;
  /** Told when a deleted account's items start going (tests wait for it to finish). */
  onAccountPurge?: (purged: Promise<void>) => void;
}

/**
 * Large listings are kept encoded between changes when this instance is the only one (SQLite):
 * see http/listing-cache/listing-cache.ts for why several instances must not.
 */
function listingCacheFor(deps: AppDeps): ListingCache | undefined {
  if (deps.db.dialect !== 'sqlite') return undefined;
  const cache = createListingCache();
  deps.events.subscribe((event) => cache.apply(event));
  return cache;
}

/** The sockets of /api/ws, over the app's event bus, sessions and links. */
export function createAppLiveHub(deps: Pick<AppDeps, 'events' | 'accounts' | 'files' | 'logger' | 'clock'>): LiveHub {
  return createLiveHub({
    events: deps.events,
    logger: deps.logger,
    clock: deps.clock,
    sessionExpiry: async (id) => (await deps.accounts.sessions.findById(id))?.expiresAt ?? null,
    linkState: (id) => linkState(deps.files, id),
  });
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
    limiter: createRateLimiter({
      rateLimits: deps.accounts.rateLimits,
      limits: deps.rateLimits ?? DEFAULT_RATE_LIMITS,
      clock,
      sleep: deps.sleep ?? Bun.sleep,
    }),
  };
  const maxFileBytes = deps.maxFileBytes ?? 1024 ** 3;
  const files: FilesDeps = {
    store: deps.files,
    quota: createQuota(deps.quota),
    blobs: deps.blobs,
    logger: deps.logger,
    clock,
    maxFileBytes,
    maxItemsPerUser: deps.maxItemsPerUser ?? DEFAULT_MAX_ITEMS_PER_USER,
    maxUnfinishedBytes: deps.maxUnfinishedBytes ?? { perLink: 2 * maxFileBytes, perUploader: 2 * maxFileBytes },
    limiter: accounts.limiter,
    trashRetentionMs: deps.trashRetentionMs ?? 0,
    ...(deps.maxVersions === undefined ? {} : { maxVersions: deps.maxVersions }),
    ...(deps.versionRetentionMs === undefined ? {} : { versionRetentionMs: deps.versionRetentionMs }),
  };
  const cookies = { secure: https };
  // One instance shared by every routes module, so its hooks run once per request.
  const session = sessionPlugin({ accounts, files, cookies, trustProxy: deps.trustProxy });
  const live = deps.live ?? createAppLiveHub(deps);
  return new Elysia({
    name: 'sealbox',
    // Bun's settings for every socket: oversized client frames close with 1009, and a client
    // that reads too slowly is dropped rather than buffered without bound.
    websocket: {
      maxPayloadLength: MAX_CLIENT_MESSAGE_BYTES,
      backpressureLimit: BACKPRESSURE_LIMIT_BYTES,
      closeOnBackpressureLimit: true,
      idleTimeout: 120,
      sendPings: true,
    },
  })
    .use(securityHeaders({ hsts: https }))
    .use(requestLog(deps.logger))
    .use(errorMapping(deps.logger))
    .use(originCheck({ publicOrigin: deps.publicOrigin }))
    .use(bodyLimit({ maxBodyBytes: deps.maxBodyBytes }))
    .use(jsonDepth())
    .use(healthRoutes(deps))
    .use(session)
    .use(accountRoutes({ accounts, session, cookies }))
    .use(accountDeletionRoutes({ accounts, files, session, cookies, onPurge: deps.onAccountPurge }))
    .use(userRoutes({ accounts, session }))
    .use(profileRoutes({ accounts, session }))
    .use(sessionRoutes({ accounts, session }))
    .use(fileRoutes({ files, session, listingCache: listingCacheFor(deps) }))
    .use(trashRoutes({ files, session }))
    .use(versionRoutes({ files, session }))
    .use(uploadRoutes({ files, session }))
    .use(sharingRoutes({ files, session, cookies }))
    .use(blockRoutes({ files, session }))
    .use(liveRoutes({ hub: live, session, files, publicOrigin: deps.publicOrigin }))
    .use(staticWeb(deps.web));
}

export type App = ReturnType<typeof createApp>;
