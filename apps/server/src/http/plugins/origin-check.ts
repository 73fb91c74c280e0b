import { Elysia } from 'elysia';
import { DomainError } from '../../domain/errors.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF defence on top of SameSite=Lax: a mutating request that says where it comes from must
 * come from us. Browsers always send Origin on cross-origin POST/PUT/DELETE (and on same-origin
 * ones from fetch), so a missing header is a non-browser client, which a cookie cannot be
 * stolen through. "null" (sandboxed frames, some redirects) is not us either.
 */
export function originCheck(options: { publicOrigin: string | undefined }) {
  return new Elysia({ name: 'origin-check' }).onRequest(({ request }) => {
    if (!MUTATING.has(request.method)) return;
    const origin = request.headers.get('origin');
    if (origin === null) return;
    if (origin === new URL(request.url).origin || origin === options.publicOrigin) return;
    throw new DomainError('FORBIDDEN', 'Cross-origin request refused');
  });
}
