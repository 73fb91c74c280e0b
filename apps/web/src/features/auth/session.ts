/**
 * Who is signed in, as far as the UI is concerned. The server decides every
 * access (session cookie, HttpOnly so unreadable here); this only steers
 * navigation. Login calls `setSession`, logout and a lost session `clearSession`
 * (see auth-state.ts); routes only ever ask `isSignedIn()`, after `ready()`.
 */
import { atom, getDefaultStore } from 'jotai';
import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from './account-api.ts';
import { PROFILE_QUERY_KEY } from './queries.ts';

export interface Session {
  userId: string;
  username: string;
}

export const SESSION_MARKER_KEY = 'sealbox.session';

function isSession(value: unknown): value is Session {
  const v = value as Partial<Session> | null;
  return typeof v?.userId === 'string' && v.userId !== '' && typeof v.username === 'string';
}

/** The marker left by a successful login (public profile fields only, never keys). */
export function readSessionMarker(storage: Storage | undefined = globalThis.localStorage): Session | null {
  try {
    const raw = storage?.getItem(SESSION_MARKER_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export const sessionAtom = atom<Session | null>(readSessionMarker());
export const signedInAtom = atom((get) => get(sessionAtom) !== null);

const store = getDefaultStore();

export function isSignedIn(): boolean {
  return store.get(signedInAtom);
}

export function setSession(session: Session): void {
  try {
    localStorage.setItem(SESSION_MARKER_KEY, JSON.stringify(session));
  } catch {
    // Still signed in for this page; the next load asks the server again.
  }
  store.set(sessionAtom, session);
}

/**
 * How many sign-ins this tab made. An answer asked for, or a socket opened, before the last one
 * is about the session that sign-in replaced (the server ends it: docs/protocol.md), not this one.
 */
export const sessionStartsAtom = atom(0);

export function sessionsStartedHere(): number {
  return store.get(sessionStartsAtom);
}

/** A sign-in that succeeded (the login page, or right after registering): the session marked, the profile kept. */
export function startSession(queryClient: QueryClient, profile: Profile): void {
  store.set(sessionStartsAtom, (starts) => starts + 1);
  setSession({ userId: profile.id, username: profile.username });
  queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
}

export function clearSession(): void {
  try {
    localStorage.removeItem(SESSION_MARKER_KEY);
  } catch {
    // Nothing persisted to remove.
  }
  store.set(sessionAtom, null);
}

/** What routes receive through the router context, so tests can fake it. */
export interface AuthContext {
  isSignedIn: () => boolean;
  /** Resolves once the first check with the server is done (absent in tests that fake auth). */
  ready?: () => Promise<void>;
}

export const auth: AuthContext = { isSignedIn };
