/**
 * Why fetching an item failed, as the person needs to know it (docs/web-files.md "Errors that say
 * what happened"): no connection, a server that cannot be reached or answered with an error, a
 * link that expired or was removed, an item gone, or data that failed its integrity check. The
 * first three pass by themselves (the page tries again when the connection is back, or offers
 * Try again); the last three do not, and trying again is never the advice for a failed check.
 */
import type { BrowseScope } from './browse-scope.ts';

export type FailureKind = 'offline' | 'unreachable' | 'server' | 'link-gone' | 'gone' | 'integrity' | 'other';

/**
 * Codes that mean the bytes or the listing the server sent are not what the owner stored: a chunk
 * failed authentication, the stream ended early, the decrypted length is not the recorded size, or
 * the item's key did not open in the current listing.
 */
export const INTEGRITY_CODES: ReadonlySet<string> = new Set(['DECRYPT_FAILED', 'TRUNCATED', 'SIZE_MISMATCH', 'NOT_VERIFIED']);

export const OFFLINE_TEXT = 'You are offline. It will load again by itself when the connection is back.';
export const UNREACHABLE_TEXT = 'Cannot reach the Sealbox server. Check the connection and try again.';
export const LINK_GONE_TEXT = 'This link has expired or was removed';
export const GONE_TEXT = 'This item was deleted, moved away or is no longer shared with you.';

export function serverErrorText(status: number): string {
  return `The server could not answer (error ${status}). Try again in a moment.`;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A fetch that never got an answer: a TypeError in the page or the worker (its name survives the RPC). */
function isNetworkError(error: unknown): boolean {
  return error instanceof Error && error.name === 'TypeError' && codeOf(error) === undefined;
}

/** The HTTP status in a worker's `HTTP_<status>` code, if that is what it is. */
export function statusOf(code: string | undefined): number | undefined {
  const match = code === undefined ? null : /^HTTP_(\d{3})$/.exec(code);
  return match ? Number(match[1]) : undefined;
}

/**
 * What `error` (a worker's coded error, an HttpStatusError with `status`, or a failed fetch) means
 * for an item reached in `scope`, with the browser `online` or not.
 */
export function failureKind(error: unknown, scope: BrowseScope, online: boolean): FailureKind {
  const code = codeOf(error);
  if (code !== undefined && INTEGRITY_CODES.has(code)) return 'integrity';
  const status = statusOf(code) ?? (error as { status?: unknown } | null)?.status;
  if (status === 404 || code === 'NOT_FOUND') return scope.kind === 'link' ? 'link-gone' : 'gone';
  if (!online) return 'offline';
  if (isNetworkError(error) || status === 0) return 'unreachable';
  if (typeof status === 'number' && (status >= 500 || status === 408)) return 'server';
  return 'other';
}

/** Whether a failure of this kind may pass by itself, so the file can still be fetched later. */
export function passes(kind: FailureKind): boolean {
  return kind === 'offline' || kind === 'unreachable' || kind === 'server';
}

/** The text for a failure of `kind`, or undefined where the caller's own text says more (integrity, other). */
export function failureText(kind: FailureKind, error: unknown): string | undefined {
  switch (kind) {
    case 'offline':
      return OFFLINE_TEXT;
    case 'unreachable':
      return UNREACHABLE_TEXT;
    case 'server':
      return serverErrorText(statusOf(codeOf(error)) ?? ((error as { status?: number }).status || 500));
    case 'link-gone':
      return LINK_GONE_TEXT;
    case 'gone':
      return GONE_TEXT;
    default:
      return undefined;
  }
}

export const REFRESH_OFFLINE_TEXT =
  'Cannot reach the server: you are offline. The list updates by itself when the connection is back.';

/** `base` (a product text such as 'Error fetching files.') followed by what `error` in `scope` was, where that is known. */
export function withReason(base: string, error: unknown, scope: BrowseScope, online: boolean): string {
  const said = failureText(failureKind(error, scope, online), error);
  return said ? `${base} ${said}` : base;
}
