/**
 * The one typed API client (README "Layout"): Eden treaty over the server's exported `App` type, so
 * routes, bodies and answers cannot drift from the server. Every JSON call goes through it, on the
 * page (lib/api.ts, with the app-wide answer rules) and in the crypto worker (workers/api.ts).
 * Same origin, so the session cookie rides along and CSP connect-src 'self' holds. Byte streams
 * (file data, parts, the listing handed to the worker unparsed) go through byte-calls.ts instead.
 */
import { treaty } from '@elysiajs/eden';
import type { App } from '@sealbox/server';

/** What the client sends its requests with (fetch plus whatever rules the caller applies). */
export type ApiFetcher = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** The origin of the page (a worker's location is its page's origin). */
export function apiOrigin(): string {
  return globalThis.location?.origin ?? 'http://localhost';
}

/** POST /api/upload takes multipart only (docs/protocol.md); Eden sends a body without a File as JSON. */
const MULTIPART_ONLY = new Set(['/api/upload']);

/**
 * Sends a JSON body of a multipart-only call as the form the server reads: each field as a
 * form field (`metadata` is already JSON text). Bodies with a File are multipart from Eden.
 */
function multipartWhereRequired(fetcher: ApiFetcher): ApiFetcher {
  return (input, init) => {
    const path = new URL(String(input), apiOrigin()).pathname;
    if (!MULTIPART_ONLY.has(path) || typeof init?.body !== 'string') return fetcher(input, init);
    const form = new FormData();
    for (const [name, value] of Object.entries(JSON.parse(init.body) as Record<string, unknown>)) {
      form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const headers = new Headers(init.headers);
    headers.delete('content-type');
    return fetcher(input, { ...init, headers, body: form });
  };
}

export function createApiClient(fetcher: ApiFetcher) {
  return treaty<App>(apiOrigin(), { fetcher: multipartWhereRequired(fetcher) as typeof fetch });
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** What every Eden call answers. */
interface EdenAnswer {
  response: Response | undefined;
  error: { value: unknown } | null;
}

/**
 * The answer of an Eden call that reached the server. Eden turns a fetch that threw (network
 * down, aborted) into a 503 without a response; this throws that fetch's own error instead, so
 * callers tell "no answer" from "answered 503" as they did with fetch.
 */
export async function answered<T extends EdenAnswer>(call: Promise<T>): Promise<T & { response: Response }> {
  const result = await call;
  if (result.response === undefined) throw result.error?.value ?? new TypeError('Failed to fetch');
  return result as T & { response: Response };
}
