/**
 * The passphrase-protected keyring (docs/cli.md "Keyring"): asked for with `sealbox keyring
 * save`, the account's key bundle re-sealed under a passphrase of the user's own, kept in the
 * config folder so that commands need neither the account password nor a round trip for the
 * sealed keys. It is sealed exactly as a password change seals the account (version-2 keys of
 * the passphrase with fresh salts), so it rests on disk no weaker than the server's copy does
 * under the password, and nothing opened ever touches the disk.
 */
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AccountKeys, type SealedInput, isCryptoError, KDF_V2, changeAccountPassword, unlockAccount } from '@sealbox/crypto';
import { CliError, EXIT } from './cli-error.ts';
import { configDir, ensureConfigDir, type StoredSession } from './config.ts';

export const PASSPHRASE_MIN = 8;

/** What keyring.json holds: whose keys, and the bundle sealed under the passphrase. */
interface StoredKeyring {
  v: 1;
  server: string;
  userId: string;
  sealed: Required<
    Pick<SealedInput, 'passwordSalt' | 'salt' | 'iv' | 'encryptedPrivateKey' | 'kdf' | 'publicKey' | 'signingPublicKey'>
  >;
}

const keyringPath = () => join(configDir(), 'keyring.json');

export function passphraseProblem(passphrase: string): string | undefined {
  return passphrase.length < PASSPHRASE_MIN ? `The passphrase must be at least ${PASSPHRASE_MIN} characters long.` : undefined;
}

/**
 * Re-seals the bundle the account password opens (`sealed`, as the server answered it) under
 * the passphrase and writes it 0600. The bundle is opened and the re-sealed copy checked to open
 * before the file is written (changeAccountPassword does both).
 */
export async function saveKeyring(
  session: StoredSession,
  password: string,
  sealed: SealedInput,
  passphrase: string,
  wrappingKey?: CryptoKey,
): Promise<void> {
  const problem = passphraseProblem(passphrase);
  if (problem) throw new CliError(problem, EXIT.usage);
  const { keys, change } = await changeAccountPassword(password, sealed, passphrase, KDF_V2, wrappingKey ? { wrappingKey } : {});
  const stored: StoredKeyring = {
    v: 1,
    server: session.server,
    userId: session.userId,
    sealed: {
      passwordSalt: change.passwordSalt,
      salt: change.salt,
      iv: change.iv,
      encryptedPrivateKey: change.encryptedPrivateKey,
      kdf: change.kdf,
      publicKey: keys.publicKey,
      signingPublicKey: keys.signingPublicKey,
    },
  };
  await ensureConfigDir();
  await writeFile(keyringPath(), `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  await chmod(keyringPath(), 0o600);
}

/** The keyring of this session's account, if there is one (one for another account is not). */
export async function loadKeyring(session: StoredSession): Promise<StoredKeyring | undefined> {
  let value: Partial<StoredKeyring>;
  try {
    value = JSON.parse(await readFile(keyringPath(), 'utf8')) as Partial<StoredKeyring>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`The keyring at ${keyringPath()} cannot be read: run \`sealbox keyring forget\`.`, EXIT.failed);
  }
  if (value.v !== 1 || value.server !== session.server || value.userId !== session.userId || !value.sealed) return undefined;
  return value as StoredKeyring;
}

/** Opens the keyring with its passphrase; a wrong one (or a file changed on disk) opens nothing. */
export async function openKeyring(keyring: StoredKeyring, passphrase: string): Promise<AccountKeys> {
  try {
    return await unlockAccount(passphrase, keyring.sealed);
  } catch (error) {
    // AES-GCM cannot tell a wrong passphrase from a changed file; keys unlike the ones saved can.
    if (isCryptoError(error) && error.code === 'DECRYPT_FAILED') throw new CliError('Wrong keyring passphrase.', EXIT.auth);
    throw new CliError('The keyring does not open: run `sealbox keyring forget` and save it again.', EXIT.integrity);
  }
}

export async function forgetKeyring(): Promise<boolean> {
  try {
    await rm(keyringPath());
    return true;
  } catch {
    return false;
  }
}
