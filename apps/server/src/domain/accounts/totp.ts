import { INVALID_RECOVERY_CODE_TEXT, isRecoveryCodeShape } from '@sealbox/rules';
import { generateSecret, generateURI, verify } from 'otplib';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { passwordMatches } from './password.ts';
import { consumeRecoveryCode, makeRecoveryCodes, newRecoveryCodes, recoveryCodeHash } from './recovery-codes.ts';
import type { UserChanges, UserRecord } from '../../ports/accounts.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';

/** RFC 6238 defaults that every authenticator app understands: SHA-1, 6 digits, 30 s. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ISSUER = 'Sealbox';
export const INVALID_TOTP = 'Invalid TOTP code.';
export const TOTP_NOT_ENABLED = 'TOTP is not enabled.';

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
 * Counts an attempt at a second-factor code against the account's TOTP limit; a right one is
 * refunded, so only failures count.
 */
async function totpLimited<T>(deps: AccountsDeps, user: UserRecord, check: () => Promise<T>): Promise<T> {
  await deps.limiter.hit('totpAccount', user.id);
  const accepted = await check();
  if (accepted) await deps.limiter.refund('totpAccount', user.id);
  return accepted;
}

/** A second-factor code to check, and what its acceptance writes in the same transaction. */
export interface CodeAttempt {
  user: UserRecord;
  secret: string;
  code: string;
  changes?: UserChanges;
  event?: SealboxEvent;
  /** Published instead of `event` when a recovery code was used (the count left changed). */
  recoveryEvent?: SealboxEvent;
  /** Recovery codes (their hashes) stored with an accepted app code, in the same write. */
  newRecoveryHashes?: readonly string[];
}

/**
 * Checks an authenticator code and marks its time step used in one atomic write, so a code works
 * once. Returns false for a wrong or replayed code.
 */
export function acceptTotpCode(deps: AccountsDeps, attempt: CodeAttempt): Promise<boolean> {
  const { user, secret, code, changes, event, newRecoveryHashes } = attempt;
  const codes = newRecoveryHashes && { hashes: newRecoveryHashes, now: deps.clock() };
  return totpLimited(deps, user, async () => {
    const step = await stepOfCode(secret, code, deps.clock());
    return step !== null && (await deps.users.claimTotpStep(user.id, step, changes, event, codes));
  });
}

/** Which kind of code was accepted, if any. */
export type AcceptedCode = 'totp' | 'recovery' | false;

const isTotpShape = (code: string) => /^\d{6}$/.test(code);

/**
 * Login and turning TOTP off: an authenticator code, or in its place one of the account's
 * recovery codes (docs/protocol.md "TOTP recovery codes"), used up by this call. Both count
 * against the same limit.
 */
export async function acceptCode(deps: AccountsDeps, attempt: CodeAttempt): Promise<AcceptedCode> {
  const { user, code, changes } = attempt;
  if (isTotpShape(code) || !isRecoveryCodeShape(code)) return (await acceptTotpCode(deps, attempt)) && 'totp';
  const event = attempt.recoveryEvent ?? attempt.event;
  return (await totpLimited(deps, user, () => consumeRecoveryCode(deps, user.id, code, changes, event))) && 'recovery';
}

/** The refusal of a code that was not accepted, in the words for its kind. */
export function wrongCodeText(code: string): string {
  return !isTotpShape(code) && isRecoveryCodeShape(code) ? INVALID_RECOVERY_CODE_TEXT : INVALID_TOTP;
}

/** `password` is the login hash, as at login: a session alone (a stolen cookie) cannot add or remove a factor. */
export type TotpAction =
  | { action: 'setup'; password: string }
  | { action: 'confirm'; code: string }
  | { action: 'disable'; code: string; password: string }
  | { action: 'recovery-codes'; password: string };

export type TotpAnswer =
  | { secret: string; uri: string }
  | { enabled: true; recoveryCodes: string[] }
  | { enabled: false }
  | { recoveryCodes: string[] };

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
      // Only the app's own code: confirming proves the authenticator works.
      // On, and its recovery codes stored, in one write: never on without codes.
      const recoveryCodes = newRecoveryCodes();
      const newRecoveryHashes = recoveryCodes.map((made) => recoveryCodeHash(user.id, made));
      const attempt = { user, secret: user.totpSecret, code: request.code, changes: { totpEnabled: true }, event: changed };
      const ok = await acceptTotpCode(deps, { ...attempt, newRecoveryHashes });
      if (!ok) throw new DomainError('VALIDATION', INVALID_TOTP);
      return { enabled: true, recoveryCodes };
    }
    case 'disable': {
      if (!user.totpEnabled || !user.totpSecret) throw new DomainError('VALIDATION', TOTP_NOT_ENABLED);
      await requirePassword(deps, user, request.password, clientIp);
      // A lost device: a recovery code turns it off too. Off, the account's codes are deleted.
      const off = { totpEnabled: false, totpSecret: null };
      const ok = await acceptCode(deps, { user, secret: user.totpSecret, code: request.code, changes: off, event: changed });
      if (!ok) throw new DomainError('VALIDATION', wrongCodeText(request.code));
      return { enabled: false };
    }
    case 'recovery-codes': {
      if (!user.totpEnabled) throw new DomainError('VALIDATION', TOTP_NOT_ENABLED);
      await requirePassword(deps, user, request.password, clientIp);
      return { recoveryCodes: await makeRecoveryCodes(deps, user.id, changed) };
    }
  }
}
