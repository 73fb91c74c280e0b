import type { LogFields, Logger, LogLevel } from '../../ports/logger.ts';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogSink = (line: string) => void;

/** One JSON object per line, so any log shipper can parse it without configuration. */
export function createJsonLogger(level: LogLevel, sink: LogSink = (line) => process.stdout.write(`${line}\n`)): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (RANK[at] < RANK[level]) return;
    sink(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }));
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}

export const silentLogger: Logger = createJsonLogger('silent');
