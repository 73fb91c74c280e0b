import { type Bytes, equalBytes, fromBase64, fromUtf8, toBase64, utf8 } from './bytes.ts';
import { NONCE_BYTES, checkLength, newKey, newNonce, open, seal } from './aead.ts';
import { CryptoError, fail } from './errors.ts';
import { KDF_V1, type KdfParams, checkKdfParams, deriveLoginPassword, deriveWrappingKey, newSalt } from './kdf.ts';
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

export const ACCOUNT_AAD = 'sealbox:v1:account';

/** An unlocked account: every secret is a non-extractable CryptoKey (safe to keep in IndexedDB). */
export interface AccountKeys {
  encryptionPrivateKey: CryptoKey;
  signingPrivateKey: CryptoKey;
  rootKey: CryptoKey;
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
  kdf: KdfParams;
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

export async function createAccount(
  password: string,
  params: KdfParams = KDF_V1,
): Promise<{ registration: Registration; keys: AccountKeys }> {
  const kdf = checkKdfParams(params);
  const passwordSalt = newSalt();
  const salt = newSalt();
  const [loginPassword, wrappingKey, encryption, signing] = await Promise.all([
    deriveLoginPassword(password, passwordSalt, kdf),
    deriveWrappingKey(password, salt, kdf),
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
  const sealed = await seal(wrappingKey, iv, ACCOUNT_AAD, utf8(JSON.stringify(bundle)));
  const keys = await importBundle(bundle);
  root.fill(0);
  return {
    registration: {
      password: loginPassword,
      passwordSalt,
      salt,
      iv: toBase64(iv),
      encryptedPrivateKey: toBase64(sealed),
      publicKey: bundle.encryption.spki,
      signingPublicKey: bundle.signing.spki,
      kdf,
    },
    keys,
  };
}

/**
 * Opens the sealed bundle with the password. KDF parameters are checked first, so a server that
 * lowers them learns nothing. If the server's copies of the public keys are given, they must
 * match the sealed ones: a swapped public key would let the server receive shares meant for us.
 */
export async function unlockAccount(
  password: string,
  sealed: Pick<SealedAccount, 'salt' | 'iv' | 'encryptedPrivateKey' | 'kdf'> &
    Partial<Pick<SealedAccount, 'publicKey' | 'signingPublicKey'>>,
): Promise<AccountKeys> {
  const kdf = checkKdfParams(sealed.kdf);
  const iv = fromBase64(sealed.iv, 'iv');
  checkLength(iv, NONCE_BYTES, 'iv');
  const ciphertext = fromBase64(sealed.encryptedPrivateKey, 'encryptedPrivateKey');
  const wrappingKey = await deriveWrappingKey(password, sealed.salt, kdf);
  const bundle = parseBundle(fromUtf8(await open(wrappingKey, iv, ACCOUNT_AAD, ciphertext)));
  const keys = await importBundle(bundle);
  for (const field of ['publicKey', 'signingPublicKey'] as const) {
    const claimed = sealed[field];
    if (claimed !== undefined && !equalBytes(fromBase64(claimed, field), fromBase64(keys[field], field))) {
      fail('KEY_CHANGED', `the server's ${field} does not match the account's own key`);
    }
  }
  return keys;
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
    const [encryptionPrivateKey, signingPrivateKey, rootKey] = await Promise.all([
      importEncryptionPrivateKey(fromBase64(b.encryption.pkcs8)),
      importSigningPrivateKey(fromBase64(b.signing.pkcs8), b.signing.alg),
      crypto.subtle.importKey('raw', root, 'AES-GCM', false, ['encrypt', 'decrypt']),
    ]);
    return { encryptionPrivateKey, signingPrivateKey, rootKey, publicKey: b.encryption.spki, signingPublicKey: b.signing.spki };
  } catch (error) {
    if (error instanceof CryptoError) throw error;
    return fail('DECRYPT_FAILED', 'account bundle holds unusable keys');
  } finally {
    root.fill(0);
  }
}
