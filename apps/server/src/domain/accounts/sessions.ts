import { createHash } from 'node:crypto';
import type { SessionRecord, UserRecord } from '../../ports/accounts.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';
import { INVALID_CREDENTIALS_TEXT } from '@sealbox/rules';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { describeDevice } from './device.ts';

/** docs/protocol.md "Accounts": 30 days, extended on use; a half login lives 5 minutes. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const TOTP_PENDING_LIFETIME_MS = 5 * 60 * 1000;
/** Writing last_seen_at on every request would turn every read into a write. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;
const USER_AGENT_MAX = 512;
/** 32 bytes in unpadded base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedSession {
  /** Goes into the cookie only; the database keeps its SHA-256. */
  token: string;
  session: SessionRecord;
}

export interface ActiveSession {
  session: SessionRecord;
  user: UserRecord;
  /** True when the expiry moved forward: the cookie should be sent again. */
  extended: boolean;
}

export function sessionIdOf(token: string): string | null {
  if (!TOKEN.test(token)) return null;
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new session for `user` as the sign-in found it: none (UNAUTHORIZED, as a wrong password) when
 * its password was changed or reset, or the account deleted, since the password was checked.
 */
export async function startSession(
  deps: AccountsDeps,
  user: Pick<UserRecord, 'id' | 'loginVerifier'>,
  options: { totpPending: boolean; userAgent: string | null },
): Promise<IssuedSession> {
  const userId = user.id;
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const now = deps.clock();
  const session: SessionRecord = {
    id: sessionIdOf(token)!,
    userId,
    totpPending: options.totpPending,
    userAgent: options.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + (options.totpPending ? TOTP_PENDING_LIFETIME_MS : SESSION_LIFETIME_MS),
  };
  if (!(await deps.sessions.insert(session, user.loginVerifier))) {
    throw new DomainError('UNAUTHORIZED', INVALID_CREDENTIALS_TEXT);
  }
  return { token, session };
}

/** The session a cookie token names, if it is live; full sessions slide forward on use. */
export async function resolveSession(deps: AccountsDeps, token: string): Promise<ActiveSession | null> {
  const id = sessionIdOf(token);
  if (id === null) return null;
  const session = await deps.sessions.findById(id);
  if (!session) return null;
  const now = deps.clock();
  if (session.expiresAt <= now) {
    await deps.sessions.delete(id);
    return null;
  }
  const user = await deps.users.findById(session.userId);
  if (!user) return null;
  let extended = false;
  if (!session.totpPending && now - session.lastSeenAt >= SESSION_TOUCH_INTERVAL_MS) {
    session.lastSeenAt = now;
    session.expiresAt = now + SESSION_LIFETIME_MS;
    await deps.sessions.touch(id, session.lastSeenAt, session.expiresAt);
    extended = true;
  }
  return { session, user, extended };
}

export interface SessionView {
  id: string;
  device: string;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

export async function listSessions(deps: AccountsDeps, userId: string, currentId: string): Promise<SessionView[]> {
  const sessions = await deps.sessions.listForUser(userId, deps.clock());
  return sessions.map((s) => ({
    id: s.id,
    device: describeDevice(s.userAgent),
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    current: s.id === currentId,
  }));
}

/** Ends one of the user's own sessions; any other id, existing or not, is NOT_FOUND alike. */
export async function endSession(deps: AccountsDeps, userId: string, sessionId: string): Promise<void> {
  const ended = await deps.sessions.deleteForUser(userId, sessionId, sessionEnded(userId, sessionId));
  if (!ended) throw new DomainError('NOT_FOUND', 'Session not found');
}

/** Logout: ends the session the cookie names, if any. */
export async function endSessionByToken(deps: AccountsDeps, token: string | undefined): Promise<void> {
  const id = token === undefined ? null : sessionIdOf(token);
  if (id === null) return;
  const session = await deps.sessions.findById(id);
  if (session) await deps.sessions.delete(id, sessionEnded(session.userId, id));
}

export function sessionEnded(userId: string, sessionId: string): SealboxEvent {
  return { kind: 'session.ended', userIds: [userId], sessionId };
}
