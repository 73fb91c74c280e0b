import { openAdapters, type Adapters } from './adapters.ts';
import type { Config } from './config/config.ts';
import { createApp, type App } from './http/app.ts';
import { createJsonLogger } from './infra/log/json-logger.ts';
import type { Logger } from './ports/logger.ts';

/** Room for multipart framing and metadata around a file of MAX_FILE_BYTES. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface RunningServer {
  url: string;
  port: number;
  app: App;
  adapters: Adapters;
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
  const maxBodyBytes = config.maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  let app: App;
  try {
    app = createApp({
      ...adapters,
      logger,
      web: { root: config.webDist },
      publicOrigin: config.publicOrigin,
      maxBodyBytes,
    });
    app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: maxBodyBytes });
  } catch (error) {
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
      const timeoutMs = stopOptions.timeoutMs ?? options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      const drained = server.stop(false).then(() => true);
      const finished = await Promise.race([drained, Bun.sleep(timeoutMs).then(() => false)]);
      if (!finished) {
        logger.warn('shutdown timeout: closing remaining connections', { pending: server.pendingRequests });
        await server.stop(true);
      }
      await adapters.close();
    })();
    return stopping;
  };

  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, app, adapters, stop };
}
