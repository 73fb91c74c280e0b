/**
 * The session cookie of docs/protocol.md: HttpOnly (no script reads it), SameSite=Lax (not sent
 * on cross-site subrequests or form posts), Path=/, Secure when the public origin is https.
 * Read and written by hand rather than through Elysia's cookie jar, which would try to parse
 * values as JSON or numbers.
 */
export const SESSION_COOKIE = 'sealbox_session';

export interface CookieSettings {
  secure: boolean;
}

export function sessionCookie(token: string, maxAgeMs: number, settings: CookieSettings): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(settings.secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(settings: CookieSettings): string {
  return sessionCookie('', 0, settings);
}

/** The value of one cookie from a Cookie header; undefined when absent or empty. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/**
 * A share link's access proof (docs/protocol.md "Share links"): one cookie per link, named for
 * it, so a proof for one link is never sent as, or mistaken for, another's. HttpOnly; sent with
 * the API calls only (Path=/api) and only by our own pages (SameSite=Strict).
 */
export const LINK_PROOF_COOKIE_PREFIX = 'sealbox_link_';

export function linkProofCookieName(linkId: string): string {
  return `${LINK_PROOF_COOKIE_PREFIX}${linkId}`;
}

export function linkProofCookie(linkId: string, value: string, maxAgeMs: number, settings: CookieSettings): string {
  return [
    `${linkProofCookieName(linkId)}=${value}`,
    'Path=/api',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(settings.secure ? ['Secure'] : []),
  ].join('; ');
}
