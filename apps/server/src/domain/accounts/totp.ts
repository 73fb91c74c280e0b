import { generateSecret, generateURI, verify } from 'otplib';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { passwordMatches } from './password.ts';
import type { UserChanges, UserRecord } from '../../ports/accounts.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';

/** RFC 6238 defaults that every authenticator app understands: SHA-1, 6 digits, 30 s. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ISSUER = 'Sealbox';

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(username: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: username, secret });
}

/** The time step the code belongs to, within one step either side of now; null if none. */
export async function stepOfCode(secret: string, code: string, nowMs: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Checks a code and marks its time step used in one atomic write, so a code works once.
 * Failed codes count against the account's TOTP limit; a right one is refunded.
 * Returns false for a wrong or replayed code.
 */
export async function acceptCode(
  deps: AccountsDeps,
  user: UserRecord,
  secret: string,
  code: string,
  changes?: UserChanges,
  event?: SealboxEvent,
): Promise<boolean> {
  await deps.limiter.hit('totpAccount', user.id);
  const step = await stepOfCode(secret, code, deps.clock());
  if (step === null) return false;
  const claimed = await deps.users.claimTotpStep(user.id, step, changes, event);
  if (claimed) await deps.limiter.refund('totpAccount', user.id);
  return claimed;
}

/** `password` is the login hash, as at login: a session alone (a stolen cookie) cannot add or remove a factor. */
export type TotpAction =
  | { action: 'setup'; password: string }
  | { action: 'confirm'; code: string }
  | { action: 'disable'; code: string; password: string };

export type TotpAnswer = { secret: string; uri: string } | { enabled: boolean };

export const WRONG_PASSWORD = 'Wrong password.';

/** 403, not 401: the caller is signed in, and the web app reads 401 as signed out. */
async function requirePassword(deps: AccountsDeps, user: UserRecord, password: string, clientIp: string): Promise<void> {
  if (!(await passwordMatches(deps, user, { username: user.username, password, clientIp }))) {
    throw new DomainError('FORBIDDEN', WRONG_PASSWORD);
  }
}

export async function changeTotp(
  deps: AccountsDeps,
  caller: { user: UserRecord; clientIp: string },
  request: TotpAction,
): Promise<TotpAnswer> {
  const { user, clientIp } = caller;
  const changed: SealboxEvent = { kind: 'profile.changed', userIds: [user.id] };
  switch (request.action) {
    case 'setup': {
      if (user.totpEnabled) throw new DomainError('VALIDATION', 'TOTP is already enabled.');
      await requirePassword(deps, user, request.password, clientIp);
      const secret = newTotpSecret();
      // A new secret starts a new code sequence: steps used with an old secret say nothing about it.
      await deps.users.update(user.id, { totpSecret: secret, totpLastUsedStep: null });
      return { secret, uri: totpUri(user.username, secret) };
    }
    case 'confirm': {
      if (user.totpEnabled) throw new DomainError('VALIDATION', 'TOTP is already enabled.');
      if (!user.totpSecret) throw new DomainError('VALIDATION', 'Set up TOTP first.');
      const ok = await acceptCode(deps, user, user.totpSecret, request.code, { totpEnabled: true }, changed);
      if (!ok) throw new DomainError('VALIDATION', 'Invalid TOTP code.');
      return { enabled: true };
    }
    case 'disable': {
      if (!user.totpEnabled || !user.totpSecret) throw new DomainError('VALIDATION', 'TOTP is not enabled.');
      await requirePassword(deps, user, request.password, clientIp);
      const ok = await acceptCode(deps, user, user.totpSecret, request.code, { totpEnabled: false, totpSecret: null }, changed);
      if (!ok) throw new DomainError('VALIDATION', 'Invalid TOTP code.');
      return { enabled: false };
    }
  }
}
