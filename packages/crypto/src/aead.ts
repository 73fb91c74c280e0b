import { type Bytes, own, randomBytes, utf8 } from './bytes.ts';
import { fail } from './errors.ts';

export const KEY_BYTES = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

/** A 256-bit AES-GCM key, either raw bytes (item keys must travel) or a non-extractable CryptoKey. */
export type AesKey = Uint8Array | CryptoKey;

export function newKey(): Bytes {
  return randomBytes(KEY_BYTES);
}

export function newNonce(): Bytes {
  return randomBytes(NONCE_BYTES);
}

export function checkLength(bytes: Uint8Array, length: number, field: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) fail('BAD_INPUT', `${field} must be ${length} bytes`);
}

export async function importAesKey(key: AesKey, extractable = false): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array)) {
    if (key.algorithm.name !== 'AES-GCM') fail('BAD_INPUT', 'key is not an AES-GCM key');
    return key;
  }
  checkLength(key, KEY_BYTES, 'key');
  return crypto.subtle.importKey('raw', own(key), 'AES-GCM', extractable, ['encrypt', 'decrypt']);
}

/** AES-GCM with a context string as AAD: a ciphertext opens only in the context it was sealed for. */
export async function seal(key: AesKey, nonce: Uint8Array, aad: string | Uint8Array, plaintext: Uint8Array): Promise<Bytes> {
  checkLength(nonce, NONCE_BYTES, 'nonce');
  const cryptoKey = await importAesKey(key);
  const additionalData = typeof aad === 'string' ? utf8(aad) : own(aad);
  const out = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: own(nonce), additionalData }, cryptoKey, own(plaintext));
  return new Uint8Array(out);
}

export async function open(key: AesKey, nonce: Uint8Array, aad: string | Uint8Array, ciphertext: Uint8Array): Promise<Bytes> {
  checkLength(nonce, NONCE_BYTES, 'nonce');
  if (ciphertext.length < TAG_BYTES) fail('DECRYPT_FAILED', 'ciphertext is shorter than its tag');
  const cryptoKey = await importAesKey(key);
  const additionalData = typeof aad === 'string' ? utf8(aad) : own(aad);
  try {
    const out = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: own(nonce), additionalData }, cryptoKey, own(ciphertext));
    return new Uint8Array(out);
  } catch {
    return fail('DECRYPT_FAILED', 'authentication failed');
  }
}
