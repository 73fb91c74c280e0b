import { openAdapters, type Adapters } from './adapters.ts';
import type { Config } from './config/config.ts';
import { createQuota, finishAccountDeletes, SHARED_SWEEP_GRACE_MS, sweep, type FilesPorts } from './domain/files/index.ts';
import { createApp, createAppLiveHub, type App } from './http/app.ts';
import type { LiveHub } from './http/live/hub.ts';
import { MAX_REQUEST_BODY_BYTES } from './http/plugins/body-limit.ts';
import { createJsonLogger } from './infra/log/json-logger.ts';
import type { Logger } from './ports/logger.ts';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * Account and folder deletes cut short, expired uploads, orphan part blobs and expired sessions
 * are swept at start and then this often.
 */
const FILES_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface RunningServer {
  url: string;
  port: number;
  app: App;
  adapters: Adapters;
  /** The live-update sockets held by this instance. */
  live: LiveHub;
  /**
   * Stops accepting connections, lets in-flight requests finish (cut off after the timeout),
   * then closes the event bus and the database. Safe to call more than once.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export async function startServer(
  config: Config,
  options: { logger?: Logger; shutdownTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createJsonLogger(config.logLevel);
  const adapters = await openAdapters(config, logger);
  const maxBodyBytes = MAX_REQUEST_BODY_BYTES;
  const files: FilesPorts = {
    store: adapters.files,
    quota: createQuota(adapters.quota),
    blobs: adapters.blobs,
    logger,
    clock: Date.now,
    trashRetentionMs: config.trashRetentionDays * 24 * 60 * 60 * 1000,
    maxVersions: config.maxVersions,
    versionRetentionMs: config.versionRetentionDays * 24 * 60 * 60 * 1000,
  };
  let app: App;
  const live = createAppLiveHub({ ...adapters, logger });
  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  try {
    // Crash safety (docs/protocol.md): before serving, folder deletes cut short are finished,
    // expired uploads go and part blobs that no row names are deleted. Alone on SQLite nothing
    // can be in flight, so no grace period; with PostgreSQL other instances may be about to
    // commit a part they just stored.
    const shared = config.database.kind === 'postgres';
    const nameGraceMs = config.deletedNameGraceDays * 24 * 60 * 60 * 1000;
    await sweep(files, { graceMs: shared ? SHARED_SWEEP_GRACE_MS : 0, nameGraceMs, skipAccounts: true });
    // Expired sessions also go when presented or at a login; this catches the ones never seen again.
    const sweepSessions = () => adapters.accounts.sessions.deleteExpired(Date.now());
    await sweepSessions();
    sweepTimer = setInterval(() => {
      sweep(files, { graceMs: SHARED_SWEEP_GRACE_MS, nameGraceMs }).catch((error: unknown) =>
        logger.error('files sweep failed', { error: String(error) }),
      );
      sweepSessions().catch((error: unknown) => logger.error('session sweep failed', { error: String(error) }));
    }, FILES_SWEEP_INTERVAL_MS);
    sweepTimer.unref();
    app = createApp({
      ...adapters,
      logger,
      web: { root: config.webDist },
      publicOrigin: config.publicOrigin,
      maxBodyBytes,
      defaultQuotaBytes: config.defaultQuotaBytes,
      trustProxy: config.trustProxy,
      rateLimits: config.rateLimits,
      maxFileBytes: config.maxFileBytes,
      maxItemsPerUser: config.maxItemsPerUser,
      maxUnfinishedBytes: { perLink: config.maxUnfinishedBytesPerLink, perUploader: config.maxUnfinishedBytesPerUploader },
      trashRetentionMs: files.trashRetentionMs,
      maxVersions: files.maxVersions,
      versionRetentionMs: files.versionRetentionMs,
      live,
    });
    app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: maxBodyBytes });
    // Deleted accounts a stop cut short: finished while serving (their purge gives way to requests).
    finishAccountDeletes(files, nameGraceMs).catch((error: unknown) =>
      logger.error('account deletes could not finish', { error: String(error) }),
    );
  } catch (error) {
    clearInterval(sweepTimer);
    live.close();
    await adapters.close();
    throw error;
  }
  const server = app.server;
  if (!server) throw new Error('Server did not start');
  const port = server.port ?? config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;

  let stopping: Promise<void> | undefined;
  const stop = (stopOptions: { timeoutMs?: number } = {}) => {
    stopping ??= (async () => {
      clearInterval(sweepTimer);
      // Sockets never finish on their own: close them first, so clients move to another instance.
      live.close();
      const timeoutMs = stopOptions.timeoutMs ?? options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      const drained = server.stop(false).then(() => true);
      const finished = await Promise.race([drained, Bun.sleep(timeoutMs).then(() => false)]);
      if (!finished) {
        logger.warn('shutdown timeout: closing remaining connections', { pending: server.pendingRequests });
        await server.stop(true);
      }
      // Elysia's after-response hooks (the request log) run after Bun counts a request done.
      await new Promise((resolve) => setImmediate(resolve));
      await adapters.close();
    })();
    return stopping;
  };

  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, app, adapters, live, stop };
}
