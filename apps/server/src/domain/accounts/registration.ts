import { EMAIL_TAKEN_TEXT, USERNAME_TAKEN_TEXT } from '@sealbox/rules';
import type { SealedAccountChanges } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { checkKdf, type KdfInput, type KdfParams } from './kdf.ts';
import { conflictMessage } from './profile.ts';
import { checkEncryptionPublicKey, checkSigningPublicKey } from './public-keys.ts';
import { checkBase64, checkEmail, checkUsername } from './validation.ts';

/** What the server keeps of an account's keys and hands back at login; it can read none of it. */
export interface SealedAccount {
  salt: string;
  iv: string;
  encryptedPrivateKey: string;
  publicKey: string;
  signingPublicKey: string;
  kdf: KdfParams;
}

/** docs/protocol.md POST /api/register; `password` is the browser's argon2id login hash. */
export interface RegistrationInput extends Omit<SealedAccount, 'kdf'> {
  kdf: KdfInput;
  username: string;
  email: string | null;
  password: string;
  passwordSalt: string;
}

export const SALT_BYTES = 16;
export const IV_BYTES = 12;
/** The sealed bundle holds two private keys, their SPKIs and a 32-byte key: a few KiB. */
export const SEALED_BUNDLE_BYTES = { min: 17, max: 64 * 1024 };

/** The login password's length: argon2id's output in version 1, HKDF's 32 bytes in version 2. */
export function loginPasswordBytes(kdf: KdfParams): number {
  return kdf.version === 2 ? 32 : kdf.argon2id.hashLength;
}
const SPKI_BYTES = { min: 32, max: 1024 };

/**
 * The server's own argon2id over the login hash: a leaked table still costs a KDF per guess,
 * on top of the client's argon2id. OWASP's argon2id baseline (19 MiB, t=2, p=1) rather than
 * Bun's 64 MiB default keeps sign-in near 300 ms (docs/benchmarks.md); verify reads the
 * parameters from each stored hash, so they can be raised later without a migration.
 */
export function hashLoginPassword(loginHash: string): Promise<string> {
  return Bun.password.hash(loginHash, { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 });
}

/** The password keys and sealed bundle a browser sends, at registration and at a KDF upgrade. */
export type PasswordKeysInput = Pick<RegistrationInput, 'password' | 'passwordSalt' | 'salt' | 'iv' | 'encryptedPrivateKey'>;

/** Each field of the password keys at the length `kdf` and the bundle's format give it. */
export function checkPasswordKeys(input: PasswordKeysInput, kdf: KdfParams): void {
  checkBase64('password', input.password, loginPasswordBytes(kdf));
  checkBase64('passwordSalt', input.passwordSalt, SALT_BYTES);
  checkBase64('salt', input.salt, SALT_BYTES);
  checkBase64('iv', input.iv, IV_BYTES);
  checkBase64('encryptedPrivateKey', input.encryptedPrivateKey, SEALED_BUNDLE_BYTES);
}

/** The password keys as stored: the login password only as the server's own hash of it. */
export async function storedPasswordKeys(input: PasswordKeysInput, kdf: KdfParams): Promise<SealedAccountChanges> {
  return {
    loginVerifier: await hashLoginPassword(input.password),
    passwordSalt: input.passwordSalt,
    kdf: JSON.stringify(kdf),
    salt: input.salt,
    iv: input.iv,
    encryptedPrivateKey: input.encryptedPrivateKey,
  };
}

export async function register(deps: AccountsDeps, input: RegistrationInput, clientIp: string): Promise<{ id: string }> {
  await deps.limiter.hit('registerIp', clientIp);
  const username = checkUsername(input.username);
  const email = checkEmail(input.email);
  const kdf = checkKdf(input.kdf);
  checkPasswordKeys(input, kdf);
  await checkEncryptionPublicKey(checkBase64('publicKey', input.publicKey, SPKI_BYTES));
  await checkSigningPublicKey(checkBase64('signingPublicKey', input.signingPublicKey, SPKI_BYTES));

  // Answer a taken name before paying for the hash; the unique indexes still decide races.
  if (await deps.users.usernameTaken(username)) throw new DomainError('CONFLICT', USERNAME_TAKEN_TEXT, { detail: 'username' });
  if (email !== null && (await deps.users.emailTaken(email)))
    throw new DomainError('CONFLICT', EMAIL_TAKEN_TEXT, { detail: 'email' });

  const id = crypto.randomUUID();
  await deps.users
    .insert({
      id,
      username,
      email,
      ...(await storedPasswordKeys(input, kdf)),
      publicKey: input.publicKey,
      signingPublicKey: input.signingPublicKey,
      totalSpace: deps.defaultQuotaBytes,
      createdAt: deps.clock(),
    })
    .catch(conflictMessage);
  return { id };
}
