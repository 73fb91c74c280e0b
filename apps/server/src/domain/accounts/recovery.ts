import { createHash, timingSafeEqual } from 'node:crypto';
import type { RecoveryRecord, UserRecord } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { checkNewPasswordKeys, type KdfUpgradeInput } from './kdf-upgrade.ts';
import { guessLimited, passwordMatches } from './password.ts';
import { IV_BYTES, SEALED_BUNDLE_BYTES, storedPasswordKeys } from './registration.ts';
import { sessionEnded } from './sessions.ts';
import { WRONG_PASSWORD } from './totp.ts';
import { checkBase64 } from './validation.ts';

/**
 * The recovery phrase (docs/protocol.md "Recovery phrase"). The browser seals a second copy of
 * the account's bundle under a key made from 24 words the user keeps; the server stores that copy
 * and the SHA-256 of recoveryAuth (another key made from the words), and never sees the words.
 * With the words, a user who forgot the password proves recoveryAuth, gets the copy, and sets a
 * new password: the same keys, sealed again. An unknown name and a wrong phrase answer alike.
 */
export const RECOVERY_REFUSED = 'The recovery phrase does not match this account.';
export const RECOVERY_CHANGED = 'The recovery phrase was replaced meanwhile. Use the new one.';
const AUTH_BYTES = 32;
/** An id no account has (ids are UUIDs). */
const NO_USER = 'no-user';

export interface RecoveryCopyInput {
  recoveryAuth: string;
  recoverySealed: string;
  recoveryNonce: string;
}

function checkRecoveryCopy(input: RecoveryCopyInput): void {
  checkBase64('recoveryAuth', input.recoveryAuth, AUTH_BYTES);
  checkBase64('recoverySealed', input.recoverySealed, SEALED_BUNDLE_BYTES);
  checkBase64('recoveryNonce', input.recoveryNonce, IV_BYTES);
}

const authHashOf = (recoveryAuth: string) =>
  createHash('sha256')
    .update(checkBase64('recoveryAuth', recoveryAuth, AUTH_BYTES))
    .digest('hex');

/**
 * PUT /api/account/recovery: a new phrase's copy and auth hash, for the current login password;
 * the phrase made before stops working.
 */
export async function setRecovery(
  deps: AccountsDeps,
  caller: { user: UserRecord; clientIp: string },
  input: RecoveryCopyInput & { currentPassword: string },
): Promise<{ createdAt: number }> {
  checkRecoveryCopy(input);
  const { user, clientIp } = caller;
  if (!(await passwordMatches(deps, user, { username: user.username, password: input.currentPassword, clientIp }))) {
    throw new DomainError('FORBIDDEN', WRONG_PASSWORD);
  }
  const createdAt = deps.clock();
  await deps.recovery.put({
    userId: user.id,
    sealed: input.recoverySealed,
    nonce: input.recoveryNonce,
    authHash: authHashOf(input.recoveryAuth),
    createdAt,
  });
  return { createdAt };
}

/** GET /api/account/recovery: when the account's phrase was made; null when it has none. */
export async function recoveryStatus(deps: AccountsDeps, userId: string): Promise<{ createdAt: number | null }> {
  return { createdAt: (await deps.recovery.find(userId))?.createdAt ?? null };
}

/** The account and its copy when `recoveryAuth` proves its phrase, under the login's limits. */
async function provenRecovery(
  deps: AccountsDeps,
  input: { username: string; recoveryAuth: string },
  clientIp: string,
): Promise<{ user: UserRecord; record: RecoveryRecord }> {
  const hash = Buffer.from(authHashOf(input.recoveryAuth), 'hex');
  await deps.limiter.hit('loginIp', clientIp);
  let found: { user: UserRecord; record: RecoveryRecord } | undefined;
  const ok = await guessLimited(deps, { username: input.username, clientIp }, async () => {
    const user = await deps.users.findByUsername(input.username);
    // Looked up for an unknown name too, so both take the same queries.
    const record = await deps.recovery.find(user?.id ?? NO_USER);
    // Compared in constant time; an unknown name compares against its own hash and fails.
    const stored = record ? Buffer.from(record.authHash, 'hex') : Buffer.alloc(hash.length);
    const same = stored.length === hash.length && timingSafeEqual(stored, hash);
    if (same && user && record) found = { user, record };
    return found !== undefined;
  });
  if (!ok || !found) throw new DomainError('UNAUTHORIZED', RECOVERY_REFUSED);
  return found;
}

/** POST /api/recovery/open: the sealed copy and the account's public keys, for its phrase. */
export async function openRecovery(deps: AccountsDeps, input: { username: string; recoveryAuth: string }, clientIp: string) {
  const { user, record } = await provenRecovery(deps, input, clientIp);
  return {
    userId: user.id,
    recoverySealed: record.sealed,
    recoveryNonce: record.nonce,
    publicKey: user.publicKey,
    signingPublicKey: user.signingPublicKey,
  };
}

/**
 * POST /api/recovery/reset: with the phrase, a new password. The account's bundle comes sealed
 * under the new password's keys and, with a fresh nonce, under the phrase again (it stays valid).
 * TOTP goes off and every session ends, in one transaction.
 */
export async function resetWithRecovery(
  deps: AccountsDeps,
  input: Omit<KdfUpgradeInput, 'currentPassword'> & RecoveryCopyInput & { username: string },
  clientIp: string,
): Promise<void> {
  checkRecoveryCopy(input);
  const { user, record } = await provenRecovery(deps, input, clientIp);
  const kdf = checkNewPasswordKeys(user, input);
  if (input.recoveryNonce === record.nonce) throw new DomainError('VALIDATION', 'recoveryNonce must be new');
  const changes = {
    ...(await storedPasswordKeys(input, kdf)),
    recoverySealed: input.recoverySealed,
    recoveryNonce: input.recoveryNonce,
  };
  const done = await deps.recovery.recover(user.id, record.authHash, changes, (id) => sessionEnded(user.id, id));
  if (!done) throw new DomainError('CONFLICT', RECOVERY_CHANGED);
}
