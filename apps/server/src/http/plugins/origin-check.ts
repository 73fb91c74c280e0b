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
    if (MUTATING.has(request.method)) refuseCrossOrigin(request, options.publicOrigin);
  });
}

/**
 * Also guards the WebSocket upgrade, a GET that browsers send with cookies from any site
 * (cross-site WebSocket hijacking); browsers always send Origin on it.
 */
export function refuseCrossOrigin(request: Request, publicOrigin: string | undefined): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  // With PUBLIC_ORIGIN set it alone counts: the request URL's origin comes from the Host
  // header, which the client chooses.
  const ours = publicOrigin ?? new URL(request.url).origin;
  if (origin !== ours) throw new DomainError('FORBIDDEN', 'Cross-origin request refused');
}
