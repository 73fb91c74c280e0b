import { Elysia } from 'elysia';
import { PART_BYTES } from '@sealbox/crypto';
import { DomainError } from '../../domain/errors.ts';

/** No JSON call of the API needs more; files and avatars go up as binary or multipart. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The largest body any request may carry: one upload part (or a one-part file with its
 * multipart metadata, or an avatar of at most 2 MiB). Files of any size go up in parts.
 */
export const MAX_REQUEST_BODY_BYTES = PART_BYTES + 64 * 1024;

/** The only routes whose bodies are binary or multipart; every other body is small JSON. */
const UPLOAD_ROUTE = /^\/api\/(?:upload(?:\/|$)|profile\/upload$)/;

/**
 * Refuses bodies that are or may be too large before anything reads them, whoever the caller
 * is (bodies are read before the session is checked): upload routes up to maxBodyBytes, every
 * other route up to the JSON limit, whatever its content type. A body of unannounced length is
 * only allowed on upload routes; Bun.serve's maxRequestBodySize (server.ts) caps those.
 */
export function bodyLimit(options: { maxBodyBytes: number; maxJsonBodyBytes?: number }) {
  const maxJson = options.maxJsonBodyBytes ?? JSON_BODY_LIMIT_BYTES;
  return new Elysia({ name: 'body-limit' }).onRequest(({ request, set }) => {
    const upload = UPLOAD_ROUTE.test(new URL(request.url).pathname);
    const limit = upload ? options.maxBodyBytes : Math.min(maxJson, options.maxBodyBytes);
    const declared = request.headers.get('content-length');
    if (declared === null) {
      if (!upload && request.headers.has('transfer-encoding')) {
        set.headers.connection = 'close';
        throw new DomainError('VALIDATION', 'A request body needs a Content-Length');
      }
      return;
    }
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) throw new DomainError('VALIDATION', 'Invalid Content-Length');
    if (length > limit) {
      // The unread body would otherwise keep the connection (and a graceful shutdown) waiting.
      set.headers.connection = 'close';
      throw new DomainError('TOO_LARGE', `Request body larger than ${limit} bytes`);
    }
  });
}
