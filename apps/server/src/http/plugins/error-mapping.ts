import { Elysia } from 'elysia';
import { DomainError, RateLimitedError, type DomainErrorCode } from '../../domain/errors.ts';
import type { Logger } from '../../ports/logger.ts';
import { routeOf } from './request-log.ts';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  // docs/product.md "States": the login answers 307 when the second factor is still needed.
  TOTP_REQUIRED: 307,
  QUOTA_EXCEEDED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  // docs/product.md "Messages": an upload above MAX_FILE_BYTES answers 405 ("File is too large").
  FILE_TOO_LARGE: 405,
  CONFLICT: 409,
  REFERENCE_MISSING: 409,
  TOO_LARGE: 413,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  // RFC 4918's Insufficient Storage: the disk under the blob store is full.
  STORAGE_FULL: 507,
};

export interface ErrorBody {
  error: DomainErrorCode;
  message: string;
}

export function errorBody(code: DomainErrorCode, message: string): ErrorBody {
  return { error: code, message };
}

export function errorMapping(logger: Logger) {
  return new Elysia({ name: 'error-mapping' }).onError({ as: 'global' }, (context) => {
    const { code, error, set, request } = context;
    // The route pattern, never the path: paths carry link ids, item ids and searched names.
    const route = routeOf(context);
    const answer = (status: number, body: ErrorBody) => {
      set.status = status;
      // Refused before its body was read (a 401 ahead of an upload, say): the unread bytes would
      // otherwise keep the connection, and a graceful shutdown, waiting.
      if (request.body !== null && !request.bodyUsed) set.headers.connection = 'close';
      set.headers['content-type'] = 'application/json; charset=utf-8';
      return body;
    };
    // Elysia wraps what a parse hook throws (e.g. the avatar route's size check) in a ParseError.
    const domain = error instanceof DomainError ? error : (error as { cause?: unknown }).cause;
    if (domain instanceof RateLimitedError) set.headers['retry-after'] = String(domain.retryAfterSeconds);
    if (domain instanceof DomainError && domain.code === 'UNAVAILABLE' && domain.cause !== undefined) {
      // A dependency (the database) failed under the request: the operator needs to hear of it.
      logger.warn('dependency unavailable', {
        method: request.method,
        route,
        error: domain.cause instanceof Error ? `${domain.cause.name}: ${domain.cause.message}` : String(domain.cause),
      });
    }
    if (domain instanceof DomainError) return answer(STATUS_BY_CODE[domain.code], errorBody(domain.code, domain.message));
    switch (code) {
      case 'VALIDATION':
        return answer(400, errorBody('VALIDATION', validationMessage(error)));
      case 'PARSE':
        return answer(400, errorBody('VALIDATION', 'Malformed request body'));
      case 'INVALID_COOKIE_SIGNATURE':
      case 'INVALID_FILE_TYPE':
        return answer(400, errorBody('VALIDATION', 'Invalid request'));
      case 'NOT_FOUND':
        return answer(404, errorBody('NOT_FOUND', 'Not found'));
    }
    logger.error('unhandled error', {
      method: request.method,
      route,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return answer(500, errorBody('INTERNAL', 'Internal server error'));
  });
}

/** Names the field and the rule, never echoes the rejected value (it may be a secret). */
function validationMessage(error: unknown): string {
  const detail = error as { type?: string; valueError?: { path?: string; message?: string } };
  const where = detail.type ?? 'request';
  const path = detail.valueError?.path ? ` ${detail.valueError.path}` : '';
  const rule = detail.valueError?.message ? `: ${detail.valueError.message}` : '';
  return `Invalid ${where}${path}${rule}`;
}
