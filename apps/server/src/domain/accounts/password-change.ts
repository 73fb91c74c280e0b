import type { UserRecord } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { checkNewPasswordKeys, KDF_CHANGED_MEANWHILE, type KdfUpgradeInput } from './kdf-upgrade.ts';
import type { KdfParams } from './kdf.ts';
import { sealedAccountOf } from './login.ts';
import { passwordMatches } from './password.ts';
import { storedPasswordKeys, type SealedAccount } from './registration.ts';
import { sessionEnded } from './sessions.ts';
import { WRONG_PASSWORD } from './totp.ts';

/**
 * PUT /api/account/password (docs/protocol.md "Password change"): the browser re-seals the same
 * bundle (same key pairs, same root key) under version-2 keys of the new password, with a fresh
 * passwordSalt, and sends them with the current login password. The server replaces the login
 * verifier and the sealed account in one compare-and-set, then ends every other session of the
 * account (their tabs are told through the live socket and go to the login page, dropping their
 * keys); the caller's session stays. No item, grant, link or blob changes.
 */
export type PasswordChangeInput = KdfUpgradeInput;

/**
 * POST /api/account/sealed: the sealed account, for a signed-in browser that is about to re-seal
 * it under a new password. It asks for the current login password, as a sign-in would (and is
 * rate limited alike): a stolen session cookie alone cannot take the bundle away to guess the
 * password offline.
 */
export async function sealedAccount(
  deps: AccountsDeps,
  caller: { user: UserRecord; clientIp: string },
  currentPassword: string,
): Promise<SealedAccount & { passwordSalt: string }> {
  const { user, clientIp } = caller;
  if (!(await passwordMatches(deps, user, { username: user.username, password: currentPassword, clientIp }))) {
    throw new DomainError('FORBIDDEN', WRONG_PASSWORD);
  }
  return { ...sealedAccountOf(user), passwordSalt: user.passwordSalt };
}

export async function changePassword(
  deps: AccountsDeps,
  caller: { user: UserRecord; sessionId: string; clientIp: string },
  input: PasswordChangeInput,
): Promise<{ kdf: KdfParams; endedSessions: number }> {
  const { user, clientIp } = caller;
  const kdf = checkNewPasswordKeys(user, input);
  const current = { username: user.username, password: input.currentPassword, clientIp };
  if (!(await passwordMatches(deps, user, current))) throw new DomainError('FORBIDDEN', WRONG_PASSWORD);

  const replaced = await deps.users.replaceSealedAccount(user.id, user.loginVerifier, await storedPasswordKeys(input, kdf));
  if (!replaced) throw new DomainError('CONFLICT', KDF_CHANGED_MEANWHILE);
  const endedSessions = await deps.sessions.deleteOthersForUser(user.id, caller.sessionId, (id) => sessionEnded(user.id, id));
  return { kdf, endedSessions };
}
