/**
 * How the app learns who is signed in, and how it stops being signed in.
 *
 * - The server decides: GET /api/profile answers 200 (signed in) or 401 (signed out). The
 *   session cookie is HttpOnly, so the local marker (session.ts) only says a session may
 *   exist; a visitor without it is signed out without asking (no 401 noise on public pages).
 * - With a marker, the first protected route waits for that answer (`ready`), and the profile
 *   is fetched again on every path change (docs/product.md "States").
 * - Signed in but without the unlocked keys in this browser (IndexedDB): log out (docs/product.md
 *   "Messages").
 * - A 401 from any call while signed in means the session ended elsewhere: forget the keys,
 *   clear the state, go to /login.
 */
import type { QueryClient } from '@tanstack/react-query';
import { cryptoWorker } from '../../crypto/client.ts';
import { postLogout, type Profile } from './account-api.ts';
import { PROFILE_QUERY_KEY, profileQuery } from './queries.ts';
import { clearSession, isSignedIn, readSessionMarker, sessionsStartedHere, setSession, type AuthContext } from './session.ts';

export type SyncResult =
  /** The server confirmed the session and this browser holds the keys. */
  | 'signed-in'
  /** No session, and none was expected. */
  | 'signed-out'
  /** A session this tab believed in is gone (ended elsewhere, expired, or keys missing). */
  | 'lost'
  /** The server could not be asked (offline, 5xx): nothing changed. */
  | 'unknown';

const signOutHooks = new Set<() => void>();

/** Lets other features drop what they hold for the signed-in user (caches of decrypted data). */
export function onSignOut(hook: () => void): void {
  signOutHooks.add(hook);
}

/** Forgets everything this browser knows about the session: keys, profile, marker, caches. */
export async function signOutLocally(queryClient?: QueryClient): Promise<void> {
  clearSession();
  for (const hook of signOutHooks) hook();
  queryClient?.setQueryData(PROFILE_QUERY_KEY, null);
  queryClient?.removeQueries({ predicate: (query) => query.queryKey[0] !== PROFILE_QUERY_KEY[0] });
  try {
    await cryptoWorker.call('forgetKeys');
  } catch {
    // A worker that cannot start holds no keys; IndexedDB is cleared on the next success.
  }
}

let loggingOut = false;
let endingOnPurpose = 0;

/** True while this tab ends its own session: its socket closing then is no news to report. */
export function isLoggingOut(): boolean {
  return loggingOut || endingOnPurpose > 0;
}

/**
 * Runs work that may end this tab's session on purpose (deleting the account): the socket that
 * closes meanwhile, or a 401, is not reported as "your session has ended", and the work itself
 * says where to go. The session stays as it was if the work ends it not.
 */
export async function endingSessionOnPurpose<T>(work: () => Promise<T>): Promise<T> {
  endingOnPurpose += 1;
  try {
    return await work();
  } finally {
    endingOnPurpose -= 1;
  }
}

/**
 * Logout: `leave` first (the page moves off the signed-in screens), then the session ends on the
 * server (204 even without one) and everything here is forgotten. From the first step on, a
 * profile check that lands meanwhile (the path change fires one) is no news: it must not report
 * the session lost and send the page to /login instead of where logout goes.
 */
export async function logout(queryClient?: QueryClient, leave?: () => Promise<unknown>): Promise<void> {
  loggingOut = true;
  try {
    await leave?.();
    await postLogout();
  } finally {
    await signOutLocally(queryClient);
    loggingOut = false;
  }
}

/** Applies a profile answer: sets the session, or logs out when the keys are not here. */
export async function applyProfile(profile: Profile | null, queryClient?: QueryClient): Promise<SyncResult> {
  if (loggingOut) return 'signed-out';
  const wasSignedIn = isSignedIn() || readSessionMarker() !== null;
  if (profile === null) {
    if (!wasSignedIn) return 'signed-out';
    await signOutLocally(queryClient);
    return 'lost';
  }
  let keysHere = false;
  try {
    keysHere = await cryptoWorker.call('hasKeys', profile.id);
  } catch {
    keysHere = false;
  }
  if (!keysHere) {
    await logout(queryClient);
    return 'lost';
  }
  setSession({ userId: profile.id, username: profile.username });
  return 'signed-in';
}

let inFlight: Promise<SyncResult> | undefined;
let last: { at: number; result: SyncResult } | undefined;

/**
 * Asks the server who is signed in (only when a session may exist) and applies the answer.
 * Concurrent callers share one request; with `reuseWithinMs`, an answer that recent is reused
 * (the first load's guard check and the root's path-change check land together).
 */
export function syncProfile(queryClient: QueryClient, { reuseWithinMs = 0 } = {}): Promise<SyncResult> {
  // While this tab logs out, there is nothing to ask: a check sent now would only meet the 401
  // of the session it is ending.
  if (loggingOut || (!isSignedIn() && readSessionMarker() === null)) return Promise.resolve('signed-out');
  if (!inFlight && last && last.result === 'signed-in' && Date.now() - last.at < reuseWithinMs) {
    return Promise.resolve(last.result);
  }
  inFlight ??= (async () => {
    const started = sessionsStartedHere();
    let profile: Profile | null;
    try {
      profile = await queryClient.fetchQuery({ ...profileQuery, staleTime: 0 });
    } catch {
      return 'unknown' as const;
    }
    // Asked for under the session before a sign-in this tab made meanwhile (another account's,
    // whose cookie the sign-in replaced): it says nothing of the new one, whose keys are not that
    // account's, so it must not log the new one out.
    if (sessionsStartedHere() !== started) return 'unknown' as const;
    const result = await applyProfile(profile, queryClient);
    last = { at: Date.now(), result };
    return result;
  })().finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/**
 * The router's auth context: `ready` resolves once the first profile check is done, so a
 * signed-in user reloading a protected page is not sent to /login while it runs.
 */
export function createAuth(queryClient: QueryClient): AuthContext {
  let first: Promise<unknown> | undefined;
  return {
    isSignedIn,
    ready: () => {
      first ??= syncProfile(queryClient);
      return first.then(() => undefined);
    },
  };
}
