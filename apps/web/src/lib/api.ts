/**
 * The page's API client (README "Layout"): the one Eden client of api-client.ts, typed from the
 * server's `App`, sending through `apiFetch`, which applies the app-wide rules:
 * - 429 anywhere shows docs/product.md "Messages" rate-limit toast (once while it is on screen),
 *   saying when to try again when the answer's Retry-After tells;
 * - 401 is reported to the handler the auth feature installs (a session ended elsewhere).
 * The page's byte calls (the listing for the crypto worker) go through `apiFetch` too.
 */
import { TOAST_DURATION_MS, toast } from '@sealbox/ui';
import { createApiClient } from './api-client.ts';
import { byteCalls } from './byte-calls.ts';
import { retryAfterSeconds, tooManyRequestsText } from './rate-limit.ts';

export { retryAfterSeconds, TOO_MANY_REQUESTS, tooManyRequestsText } from './rate-limit.ts';

export interface ApiAnswer {
  status: number;
  method: string;
  /** Path of the request, e.g. /api/profile. */
  path: string;
  /** The Retry-After header of a 429, as sent. */
  retryAfter?: string;
}

let unauthorizedHandler: ((answer: ApiAnswer) => void) | undefined;
let lastRateLimitToast = Number.NEGATIVE_INFINITY;

/** The auth feature decides what a 401 means (signed-out visitor or a session ended elsewhere). */
export function setUnauthorizedHandler(handler: ((answer: ApiAnswer) => void) | undefined): void {
  unauthorizedHandler = handler;
}

function describe(input: RequestInfo | URL, init: RequestInit | undefined, status: number): ApiAnswer {
  const url = input instanceof Request ? input.url : String(input);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  let path = url;
  try {
    path = new URL(url, globalThis.location?.origin ?? 'http://localhost').pathname;
  } catch {
    // keep the raw string
  }
  return { status, method, path };
}

/** Applies the global answer rules to one response (exported for tests). */
export function applyAnswerRules(answer: ApiAnswer, now = Date.now()): void {
  if (answer.status === 429) {
    // A burst of limited requests shows one toast, not three identical ones.
    if (now - lastRateLimitToast >= TOAST_DURATION_MS) {
      lastRateLimitToast = now;
      toast(tooManyRequestsText(retryAfterSeconds(answer.retryAfter, now)), 'error');
    }
  } else if (answer.status === 401) {
    unauthorizedHandler?.(answer);
  }
}

/** Resets the rate-limit toast memory (tests). */
export function resetAnswerRules(): void {
  lastRateLimitToast = Number.NEGATIVE_INFINITY;
}

export const apiFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const response = await fetch(input, { credentials: 'same-origin', ...init });
  const answer = describe(input, init, response.status);
  const retryAfter = response.status === 429 ? response.headers.get('retry-after') : null;
  applyAnswerRules(retryAfter ? { ...answer, retryAfter } : answer);
  return response;
};

export const api = createApiClient(apiFetch);

/** Byte streams under the same rules (lib/byte-calls.ts). */
export const apiBytes = byteCalls(apiFetch);

/** The `message` of a JSON error answer `{ error, message }`, if there is one. */
export function errorMessageOf(error: { value?: unknown } | null | undefined): string | undefined {
  const value = error?.value as { message?: unknown } | undefined;
  return typeof value?.message === 'string' && value.message !== '' ? value.message : undefined;
}
