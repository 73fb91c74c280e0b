import { type Config, ConfigError, loadConfig } from './config/config.ts';
import { createJsonLogger } from './infra/log/json-logger.ts';
import { startServer } from './server.ts';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createJsonLogger(config.logLevel);
const server = await startServer(config, { logger });
logger.info('listening', { url: server.url });

let exiting = false;
async function shutdown(signal: string): Promise<void> {
  if (exiting) return;
  exiting = true;
  logger.info('shutting down', { signal });
  try {
    await server.stop();
    process.exit(0);
  } catch (error) {
    logger.error('shutdown failed', { error: String(error) });
    process.exit(1);
  }
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
