export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Fields must never carry secrets, names, keys, bodies, cookies or query strings. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}
