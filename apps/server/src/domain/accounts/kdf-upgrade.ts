import { KDF_V2 } from '@sealbox/crypto';
import type { UserRecord } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { checkKdf, parseStoredKdf, type KdfInput, type KdfParams, type KdfParamsV2 } from './kdf.ts';
import { passwordMatches } from './password.ts';
import { checkPasswordKeys, storedPasswordKeys } from './registration.ts';
import { WRONG_PASSWORD } from './totp.ts';

/**
 * PUT /api/account/kdf (docs/protocol.md "Account"): a signed-in browser that unlocked a
 * version-1 account re-seals the same bundle under version-2 password keys and sends them. The
 * server replaces the login verifier and the sealed account together, and keeps the sessions.
 */
export interface KdfUpgradeInput {
  /** The login password that signed in: a session alone (a stolen cookie) cannot replace the keys. */
  currentPassword: string;
  /** The new login password (version 2's HKDF output). */
  password: string;
  passwordSalt: string;
  salt: string;
  iv: string;
  encryptedPrivateKey: string;
  kdf: KdfInput;
}

export const KDF_ONLY_UPWARDS = 'kdf.version must be 2: an account only moves to stronger password keys';
export const KDF_CHANGED_MEANWHILE = "The account's password keys changed meanwhile. Sign in again.";
export const KDF_ALREADY_V2 = 'The account uses version-2 password keys already';
export const KDF_BELOW_DEFAULT = `kdf.argon2id must be at least the client's default (${KDF_V2.argon2id.iterations} passes, ${KDF_V2.argon2id.memoryKiB} KiB)`;

/**
 * The upgrade is a one-way step from version 1, made by the app with its own default (KDF_V2
 * of packages/crypto). Anything else is refused: repeated, or at the bare floor registration
 * allows, it would let a stolen session plus login hash re-seal the account under weak keys or
 * with junk (docs/protocol.md, threat table: "KDF replacement").
 */
function checkUpgradeTarget(kdf: KdfParamsV2): void {
  const a = kdf.argon2id;
  const floor = KDF_V2.argon2id;
  if (a.iterations < floor.iterations || a.memoryKiB < floor.memoryKiB || a.parallelism < floor.parallelism) {
    throw new DomainError('VALIDATION', KDF_BELOW_DEFAULT);
  }
}

/**
 * New password keys re-sealing the account (this upgrade, and a password change): version 2 at
 * the client's default or above, well formed, with a passwordSalt and iv not used before.
 * Checked before the password, so a malformed body never counts as a failed login.
 */
export function checkNewPasswordKeys(user: UserRecord, input: Omit<KdfUpgradeInput, 'currentPassword'>): KdfParamsV2 {
  const kdf = checkKdf(input.kdf);
  if (kdf.version !== 2) throw new DomainError('VALIDATION', KDF_ONLY_UPWARDS);
  checkUpgradeTarget(kdf);
  checkPasswordKeys(input, kdf);
  if (input.passwordSalt === user.passwordSalt) throw new DomainError('VALIDATION', 'passwordSalt must be new');
  if (input.iv === user.iv) throw new DomainError('VALIDATION', 'iv must be new');
  return kdf;
}

export async function upgradeKdf(
  deps: AccountsDeps,
  caller: { user: UserRecord; clientIp: string },
  input: KdfUpgradeInput,
): Promise<{ kdf: KdfParams }> {
  const { user, clientIp } = caller;
  const kdf = checkNewPasswordKeys(user, input);
  if (parseStoredKdf(user.kdf).version !== 1) throw new DomainError('CONFLICT', KDF_ALREADY_V2);

  const current = { username: user.username, password: input.currentPassword, clientIp };
  if (!(await passwordMatches(deps, user, current))) throw new DomainError('FORBIDDEN', WRONG_PASSWORD);

  const replaced = await deps.users.replaceSealedAccount(user.id, user.loginVerifier, await storedPasswordKeys(input, kdf));
  if (!replaced) throw new DomainError('CONFLICT', KDF_CHANGED_MEANWHILE);
  return { kdf };
}
