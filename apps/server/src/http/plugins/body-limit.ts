import { Elysia } from 'elysia';
import { DomainError } from '../../domain/errors.ts';

/** No JSON call of the API needs more; files and avatars go up as binary or multipart. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Refuses bodies announced as too large before anything reads them. Bun.serve's
 * maxRequestBodySize (set to maxBodyBytes in server.ts) stops chunked bodies that lie or
 * announce nothing.
 */
export function bodyLimit(options: { maxBodyBytes: number; maxJsonBodyBytes?: number }) {
  const maxJson = options.maxJsonBodyBytes ?? JSON_BODY_LIMIT_BYTES;
  return new Elysia({ name: 'body-limit' }).onRequest(({ request, set }) => {
    const declared = request.headers.get('content-length');
    if (declared === null) return;
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) throw new DomainError('VALIDATION', 'Invalid Content-Length');
    const isJson = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json');
    const limit = isJson ? Math.min(maxJson, options.maxBodyBytes) : options.maxBodyBytes;
    if (length > limit) {
      // The unread body would otherwise keep the connection (and a graceful shutdown) waiting.
      set.headers.connection = 'close';
      throw new DomainError('TOO_LARGE', `Request body larger than ${limit} bytes`);
    }
  });
}
