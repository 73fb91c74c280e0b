import { type Bytes, equalBytes, fromBase64, fromUtf8, own, toBase64, utf8 } from './bytes.ts';
import { NONCE_BYTES, checkLength, newKey, newNonce, open, seal } from './aead.ts';
import { CryptoError, fail } from './errors.ts';
import {
  type AccountKdf,
  KDF_V1,
  type KdfParams,
  checkAccountKdf,
  deriveLoginPassword,
  deriveWrappingKey,
  newSalt,
} from './kdf.ts';
import { KDF_V2, type KdfParamsV2, checkKdfParamsV2, derivePasswordKeysV2 } from './kdf-v2.ts';
import {
  type SigningAlgorithm,
  exportBase64,
  exportBytes,
  generateEncryptionPair,
  generateSigningPair,
  importEncryptionPrivateKey,
  importSigningPrivateKey,
  signingAlgorithmOf,
} from './keys.ts';

import { deriveSearchIndexKey } from './search-index.ts';

export const ACCOUNT_AAD = 'sealbox:v1:account';

/** An unlocked account: every secret is a non-extractable CryptoKey (safe to keep in IndexedDB). */
export interface AccountKeys {
  encryptionPrivateKey: CryptoKey;
  signingPrivateKey: CryptoKey;
  rootKey: CryptoKey;
  /**
   * Seals the browser's search index (search-index.ts), derived from R at unlock. Absent in keys
   * stored by a build before it: that session searches without an index until the next sign-in.
   */
  searchIndexKey?: CryptoKey;
  /** SPKI, base64: the keys others see and pin. Taken from the sealed bundle, not from the server. */
  publicKey: string;
  signingPublicKey: string;
}

/** What the server keeps for an account; it can read none of the secrets. */
export interface SealedAccount {
  passwordSalt: string;
  salt: string;
  iv: string;
  encryptedPrivateKey: string;
  publicKey: string;
  signingPublicKey: string;
  /** Version 1 or 2 (docs/protocol.md "Account"). In version 2 `salt` is unused: one argon2id over passwordSalt makes both keys. */
  kdf: AccountKdf;
}

export interface Registration extends SealedAccount {
  /** The login password (argon2id output) the server verifies; never the real password. */
  password: string;
}

interface Bundle {
  v: 1;
  encryption: { pkcs8: string; spki: string };
  signing: { alg: SigningAlgorithm; pkcs8: string; spki: string };
  root: string;
}

/**
 * New account keys sealed under `params` (KDF_V1 or KDF_V2). The app registers with KDF_V2; the
 * default stays KDF_V1 for the callers (tests, tools) written before version 2 existed.
 * `wrappingKey` is the same non-extractable key passwordKeys gives at every sign-in: handed out so
 * that makeRecovery right after registration (once the server has named the user) opens the new
 * bundle without a second argon2id. The bundle's plaintext itself never leaves the package.
 */
export async function createAccount(
  password: string,
  params: KdfParams | KdfParamsV2 = KDF_V1,
): Promise<{ registration: Registration; keys: AccountKeys; wrappingKey: CryptoKey }> {
  const kdf = checkAccountKdf(params);
  const passwordSalt = newSalt();
  const salt = newSalt();
  const [secrets, encryption, signing] = await Promise.all([
    passwordKeys(password, { passwordSalt, salt, kdf }),
    generateEncryptionPair(),
    generateSigningPair(),
  ]);
  const signingSpki = await exportBytes('spki', signing.publicKey);
  const root = newKey();
  const bundle: Bundle = {
    v: 1,
    encryption: {
      pkcs8: await exportBase64('pkcs8', encryption.privateKey),
      spki: await exportBase64('spki', encryption.publicKey),
    },
    signing: {
      alg: signingAlgorithmOf(signingSpki),
      pkcs8: await exportBase64('pkcs8', signing.privateKey),
      spki: toBase64(signingSpki),
    },
    root: toBase64(root),
  };
  const iv = newNonce();
  const sealed = await seal(secrets.wrappingKey, iv, ACCOUNT_AAD, utf8(JSON.stringify(bundle)));
  const keys = await importBundle(bundle);
  root.fill(0);
  return {
    registration: {
      password: secrets.loginPassword,
      passwordSalt,
      salt,
      iv: toBase64(iv),
      encryptedPrivateKey: toBase64(sealed),
      publicKey: bundle.encryption.spki,
      signingPublicKey: bundle.signing.spki,
      kdf,
    },
    keys,
    wrappingKey: secrets.wrappingKey,
  };
}

/**
 * The login password and the wrapping key of a version. Version 1: argon2id over passwordSalt
 * and, separately, PBKDF2 over salt. Version 2: one argon2id over passwordSalt, split by HKDF.
 */
export async function passwordKeys(
  password: string,
  input: { passwordSalt: string; salt: string; kdf: unknown },
): Promise<{ loginPassword: string; wrappingKey: CryptoKey }> {
  const kdf = checkAccountKdf(input.kdf);
  if (kdf.version === 2) {
    const { loginPassword, wrappingKeyBits } = await derivePasswordKeysV2(password, input.passwordSalt, kdf);
    try {
      return { loginPassword, wrappingKey: await importWrappingKey(wrappingKeyBits) };
    } finally {
      wrappingKeyBits.fill(0);
    }
  }
  const [loginPassword, wrappingKey] = await Promise.all([
    deriveLoginPassword(password, input.passwordSalt, kdf),
    deriveWrappingKey(password, input.salt, kdf),
  ]);
  return { loginPassword, wrappingKey };
}

/** Version 2's wrapping key alone, from the raw HKDF output (zero it afterwards). */
export function importWrappingKey(bits: Bytes): Promise<CryptoKey> {
  checkLength(bits, 32, 'wrapping key');
  return crypto.subtle.importKey('raw', own(bits), 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** The sealed account as the login answer gives it, plus the lookup's passwordSalt (version 2 needs it). */
export type SealedInput = Pick<SealedAccount, 'salt' | 'iv' | 'encryptedPrivateKey' | 'kdf'> &
  Partial<Pick<SealedAccount, 'passwordSalt' | 'publicKey' | 'signingPublicKey'>>;

export interface UnlockOptions {
  /**
   * Version 2's wrapping key, already derived from the same password, passwordSalt and
   * parameters while making the login password (one argon2id per sign-in, not two).
   */
  wrappingKey?: CryptoKey;
}

/** A version-1 account re-sealed under version 2: the body of PUT /api/account/kdf, less the current login password. */
export interface KdfUpgrade {
  password: string;
  passwordSalt: string;
  salt: string;
  iv: string;
  encryptedPrivateKey: string;
  kdf: KdfParamsV2;
}

/**
 * Opens the sealed bundle with the password. KDF parameters are checked first, so a server that
 * lowers them learns nothing. If the server's copies of the public keys are given, they must
 * match the sealed ones: a swapped public key would let the server receive shares meant for us.
 */
export async function unlockAccount(password: string, sealed: SealedInput, options: UnlockOptions = {}): Promise<AccountKeys> {
  const { keys, plaintext } = await openAccount(password, sealed, options);
  plaintext.fill(0);
  return keys;
}

/**
 * Unlocks an account and re-seals the very same bundle (same key pairs, same root key) under
 * `target`'s keys of the same password: what a version-1 account sends at its next login to move
 * to version 2. A password change with the new password equal to the old one.
 */
export async function upgradeAccount(
  password: string,
  sealed: SealedInput,
  target: KdfParamsV2 = KDF_V2,
): Promise<{ keys: AccountKeys; upgrade: KdfUpgrade }> {
  const { keys, change } = await changeAccountPassword(password, sealed, password, target);
  return { keys, upgrade: change };
}

/**
 * A password change (docs/protocol.md "Account"): opens the bundle with `currentPassword` and
 * re-seals the same plaintext under version-2 keys of `newPassword`, with a fresh passwordSalt,
 * salt and iv. No item key, grant, link or blob changes, since the key pairs and root key stay.
 * `change.password` is the NEW login password; the current one, for the server to check, is
 * passwordKeys(currentPassword, sealed).loginPassword, whose wrappingKey may be passed in
 * `options` to spare a second argon2id.
 */
export async function changeAccountPassword(
  currentPassword: string,
  sealed: SealedInput,
  newPassword: string,
  target: KdfParamsV2 = KDF_V2,
  options: UnlockOptions = {},
): Promise<{ keys: AccountKeys; change: KdfUpgrade }> {
  // Refused before the current password is spent on a KDF that would lead nowhere.
  const kdf = checkKdfParamsV2(target);
  checkNewPassword(newPassword);
  const { keys, plaintext } = await openAccount(currentPassword, sealed, options);
  try {
    return { keys, change: await sealBundle(plaintext, newPassword, kdf) };
  } finally {
    plaintext.fill(0);
  }
}

export function checkNewPassword(password: unknown): asserts password is string {
  if (typeof password !== 'string' || password.length === 0) fail('BAD_INPUT', 'the new password must not be empty');
}

/**
 * Seals a bundle's plaintext under fresh version-2 keys of `password` (new passwordSalt, salt and
 * iv). The new ciphertext is opened once more before it is returned, so a fault here can never
 * replace a working account with one that does not open.
 */
export async function sealBundle(plaintext: Bytes, password: string, kdf: KdfParamsV2): Promise<KdfUpgrade> {
  const passwordSalt = newSalt();
  const salt = newSalt();
  const next = await passwordKeys(password, { passwordSalt, salt, kdf });
  const iv = newNonce();
  const ciphertext = await seal(next.wrappingKey, iv, ACCOUNT_AAD, plaintext);
  const check = await open(next.wrappingKey, iv, ACCOUNT_AAD, ciphertext);
  const same = equalBytes(check, plaintext);
  check.fill(0);
  if (!same) fail('DECRYPT_FAILED', 'the re-sealed account does not open');
  return {
    password: next.loginPassword,
    passwordSalt,
    salt,
    iv: toBase64(iv),
    encryptedPrivateKey: toBase64(ciphertext),
    kdf,
  };
}

/**
 * Opens the sealed bundle with the password. KDF parameters are checked first (either version),
 * so a server that lowers them learns nothing. The bundle opens only under the wrapping key of
 * the version it was sealed with: a server that claims version 1 for a version-2 account gets a
 * PBKDF2 key that fails AES-GCM's check (DECRYPT_FAILED). If the server's copies of the public
 * keys are given, they must match the sealed ones: a swapped public key would let the server
 * receive shares meant for us.
 */
export async function openAccount(
  password: string,
  sealed: SealedInput,
  options: UnlockOptions,
): Promise<{ keys: AccountKeys; plaintext: Bytes }> {
  const kdf = checkAccountKdf(sealed.kdf);
  const iv = fromBase64(sealed.iv, 'iv');
  checkLength(iv, NONCE_BYTES, 'iv');
  const ciphertext = fromBase64(sealed.encryptedPrivateKey, 'encryptedPrivateKey');
  let wrappingKey: CryptoKey;
  if (kdf.version === 2) {
    if (options.wrappingKey) wrappingKey = options.wrappingKey;
    else {
      if (sealed.passwordSalt === undefined) fail('BAD_INPUT', 'passwordSalt is required for version 2');
      wrappingKey = (await passwordKeys(password, { passwordSalt: sealed.passwordSalt, salt: sealed.salt, kdf })).wrappingKey;
    }
  } else {
    wrappingKey = await deriveWrappingKey(password, sealed.salt, kdf);
  }
  const plaintext = await open(wrappingKey, iv, ACCOUNT_AAD, ciphertext);
  return { keys: await acceptBundle(plaintext, sealed), plaintext };
}

/**
 * The keys of an opened bundle, once the public keys the server claims (if given) match the
 * bundle's own. On any failure the plaintext is zeroed, so callers only zero it on success.
 */
export async function acceptBundle(
  plaintext: Bytes,
  claimed: Partial<Pick<SealedAccount, 'publicKey' | 'signingPublicKey'>>,
): Promise<AccountKeys> {
  try {
    const keys = await importBundle(parseBundle(fromUtf8(plaintext)));
    for (const field of ['publicKey', 'signingPublicKey'] as const) {
      const value = claimed[field];
      if (value !== undefined && !equalBytes(fromBase64(value, field), fromBase64(keys[field], field))) {
        fail('KEY_CHANGED', `the server's ${field} does not match the account's own key`);
      }
    }
    return keys;
  } catch (error) {
    plaintext.fill(0);
    throw error;
  }
}

function parseBundle(json: string): Bundle {
  let b: Bundle;
  try {
    b = JSON.parse(json) as Bundle;
  } catch {
    return fail('DECRYPT_FAILED', 'account bundle is not valid JSON');
  }
  const ok =
    b?.v === 1 &&
    typeof b.encryption?.pkcs8 === 'string' &&
    typeof b.encryption.spki === 'string' &&
    (b.signing?.alg === 'Ed25519' || b.signing?.alg === 'ECDSA-P256') &&
    typeof b.signing.pkcs8 === 'string' &&
    typeof b.signing.spki === 'string' &&
    typeof b.root === 'string';
  if (!ok) fail('DECRYPT_FAILED', 'account bundle is malformed');
  return b;
}

async function importBundle(b: Bundle): Promise<AccountKeys> {
  const root: Bytes = fromBase64(b.root, 'root');
  checkLength(root, 32, 'root key');
  try {
    const [encryptionPrivateKey, signingPrivateKey, rootKey, searchIndexKey] = await Promise.all([
      importEncryptionPrivateKey(fromBase64(b.encryption.pkcs8)),
      importSigningPrivateKey(fromBase64(b.signing.pkcs8), b.signing.alg),
      crypto.subtle.importKey('raw', root, 'AES-GCM', false, ['encrypt', 'decrypt']),
      deriveSearchIndexKey(root),
    ]);
    return {
      encryptionPrivateKey,
      signingPrivateKey,
      rootKey,
      searchIndexKey,
      publicKey: b.encryption.spki,
      signingPublicKey: b.signing.spki,
    };
  } catch (error) {
    if (error instanceof CryptoError) throw error;
    return fail('DECRYPT_FAILED', 'account bundle holds unusable keys');
  } finally {
    root.fill(0);
  }
}
