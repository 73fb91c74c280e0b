/**
 * The server process: `bun --no-install apps/server/src/main.ts` is the production start
 * (docs/operations.md). It installs and builds nothing; it is the process a process manager
 * signals, and SIGTERM or SIGINT drains it (server.ts `stop`) and exits 0.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config/config.ts';

// Before any module that needs a package is loaded: name a missing install, not a stack trace.
// (With --no-install Bun never fetches packages at run time, unpinned, when node_modules is gone.)
try {
  for (const name of ['elysia', '@sealbox/crypto']) import.meta.resolve(name);
} catch (error) {
  console.error(`Dependencies are not installed (${(error as Error).message}). Run: bun install --frozen-lockfile`);
  process.exit(1);
}
const { ConfigError, loadConfig } = await import('./config/config.ts');
const { configSummary } = await import('./config/summary.ts');
const { createJsonLogger } = await import('./infra/log/json-logger.ts');
const { startServer } = await import('./server.ts');
const { isLateWriteOnClosedConnection } = await import('./infra/db/postgres/late-write.ts');

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

// A production start builds nothing: say what is missing rather than serve a blank page.
if (!existsSync(join(config.webDist, 'index.html'))) {
  console.error(
    `The web app is not built: ${join(config.webDist, 'index.html')} is missing. ` +
      'Run `bun install --frozen-lockfile && bun run build:web` in the repository (or set WEB_DIST).',
  );
  process.exit(1);
}

const logger = createJsonLogger(config.logLevel);
// One known library race may throw from a timer during a database outage: let it pass; anything
// else stops the process as it would without a handler.
process.on('uncaughtException', (error) => {
  if (isLateWriteOnClosedConnection(error)) {
    logger.warn('database connection closed mid-write', { error: String(error) });
    return;
  }
  logger.error('uncaught exception', { error: String(error), stack: (error as Error)?.stack });
  process.exit(1);
});
logger.info('starting', configSummary(config));
let server: Awaited<ReturnType<typeof startServer>>;
try {
  server = await startServer(config, { logger });
} catch (error) {
  logger.error('start failed', { error: String(error), cause: String((error as Error).cause ?? '') || undefined });
  process.exit(1);
}
logger.info('listening', { url: server.url });

let exiting = false;
async function shutdown(signal: string): Promise<void> {
  if (exiting) return;
  exiting = true;
  logger.info('shutting down', { signal });
  try {
    await server.stop();
    logger.info('stopped', { signal });
    process.exit(0);
  } catch (error) {
    logger.error('shutdown failed', { error: String(error) });
    process.exit(1);
  }
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
