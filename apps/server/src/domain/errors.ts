import { RATE_LIMITED_TEXT } from '@sealbox/rules';

/**
 * Every rule the server enforces fails with a DomainError. The code is the contract with
 * clients; http/plugins/error-mapping.ts is the only place that turns a code into a status.
 */
export const DOMAIN_ERROR_CODES = [
  'VALIDATION',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'REFERENCE_MISSING',
  'QUOTA_EXCEEDED',
  /** The request body exceeds what the server accepts at all. */
  'TOO_LARGE',
  /** The file exceeds MAX_FILE_BYTES. */
  'FILE_TOO_LARGE',
  'RANGE_NOT_SATISFIABLE',
  'RATE_LIMITED',
  'TOTP_REQUIRED',
  'UNAVAILABLE',
  /** The server's own storage is full (ENOSPC): not the user's quota, and not their fault. */
  'STORAGE_FULL',
  'INTERNAL',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: DomainErrorCode;
  /** Machine-readable hint for callers, e.g. which unique constraint was hit. Never user data. */
  readonly detail: string | undefined;

  constructor(code: DomainErrorCode, message: string, options?: { cause?: unknown; detail?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options?.detail;
  }
}

export function isDomainError(value: unknown, code?: DomainErrorCode): value is DomainError {
  return value instanceof DomainError && (code === undefined || value.code === code);
}

/** RATE_LIMITED with the seconds until the window resets (the HTTP layer sends Retry-After). */
export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super('RATE_LIMITED', RATE_LIMITED_TEXT);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
