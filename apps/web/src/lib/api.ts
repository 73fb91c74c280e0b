/**
 * The typed API client (DESIGN.md 1): Eden treaty over the server's exported
 * `App` type, so routes, bodies and answers cannot drift from the server.
 * Same origin, so the session cookie rides along and CSP connect-src 'self' holds.
 */
import { treaty } from '@elysiajs/eden';
import type { App } from '@sealbox/server';

export const api = treaty<App>(globalThis.location?.origin ?? 'http://localhost', {
  fetch: { credentials: 'same-origin' },
});
