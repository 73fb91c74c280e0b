/**
 * docs/product.md "Messages" rate-limit text with when to try again: pure, so the page and the
 * crypto worker share it.
 */
import { RATE_LIMITED_TEXT } from '@sealbox/rules';

/** The server's 429 says it too (@sealbox/rules). */
export const TOO_MANY_REQUESTS = RATE_LIMITED_TEXT;

/**
 * Seconds to wait from a Retry-After header (delta-seconds, or an HTTP date), rounded up;
 * undefined when absent, unreadable or already past.
 */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const seconds = /^\d+$/.test(trimmed) ? Number(trimmed) : Math.ceil((Date.parse(trimmed) - now) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** docs/product.md "Messages" 429 text, followed by when to try again if the server said. */
export function tooManyRequestsText(waitSeconds?: number): string {
  if (waitSeconds === undefined) return TOO_MANY_REQUESTS;
  const minutes = Math.ceil(waitSeconds / 60);
  const wait =
    waitSeconds < 60 ? `${waitSeconds} second${waitSeconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${TOO_MANY_REQUESTS} Try again in ${wait}.`;
}
