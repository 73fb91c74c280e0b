import { type Bytes, fromBase64, fromUtf8, toBase64, utf8 } from './bytes.ts';
import { type AesKey, KEY_BYTES, checkLength, newKey, newNonce, open, seal } from './aead.ts';
import { fail } from './errors.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every item id is a client-made UUID v4; binding it into AAD pins a ciphertext to its item. */
export function checkItemId(id: string): string {
  if (typeof id !== 'string' || !UUID_V4.test(id)) fail('BAD_INPUT', 'item id must be a lowercase UUID v4');
  return id;
}

export function newItemId(): string {
  return crypto.randomUUID();
}

/** A fresh 32-byte item key K. Raw bytes, because K must be wrapped, shared and put in links. */
export function newItemKey(): Bytes {
  return newKey();
}

export const nameAad = (id: string) => `sealbox:v1:name:${checkItemId(id)}`;
export const mimeAad = (id: string) => `sealbox:v1:mime:${checkItemId(id)}`;
export const keyAad = (id: string) => `sealbox:v1:key:${checkItemId(id)}`;

export interface SealedText {
  ciphertext: string;
  nonce: string;
}

async function sealText(key: AesKey, aad: string, text: string): Promise<SealedText> {
  if (typeof text !== 'string') fail('BAD_INPUT', 'text must be a string');
  const nonce = newNonce();
  return { ciphertext: toBase64(await seal(key, nonce, aad, utf8(text))), nonce: toBase64(nonce) };
}

async function openText(key: AesKey, aad: string, ciphertext: string, nonce: string): Promise<string> {
  return fromUtf8(await open(key, fromBase64(nonce, 'nonce'), aad, fromBase64(ciphertext, 'ciphertext')));
}

export async function encryptName(
  key: AesKey,
  id: string,
  name: string,
): Promise<{ encryptedFileName: string; nameNonce: string }> {
  const s = await sealText(key, nameAad(id), name);
  return { encryptedFileName: s.ciphertext, nameNonce: s.nonce };
}

export function decryptName(key: AesKey, id: string, encryptedFileName: string, nameNonce: string): Promise<string> {
  return openText(key, nameAad(id), encryptedFileName, nameNonce);
}

export async function encryptMime(
  key: AesKey,
  id: string,
  mimeType: string,
): Promise<{ encryptedMimeType: string; mimeTypeNonce: string }> {
  const s = await sealText(key, mimeAad(id), mimeType);
  return { encryptedMimeType: s.ciphertext, mimeTypeNonce: s.nonce };
}

export function decryptMime(key: AesKey, id: string, encryptedMimeType: string, mimeTypeNonce: string): Promise<string> {
  return openText(key, mimeAad(id), encryptedMimeType, mimeTypeNonce);
}

/**
 * Wraps item key K under W: the parent folder's K, or the owner's account root key at the top.
 * Only a holder of W can place an item where the owner will trust it (no folder/file injection).
 */
export async function wrapItemKey(
  wrappingKey: AesKey,
  id: string,
  key: Uint8Array,
): Promise<{ encryptedKey: string; keyNonce: string }> {
  checkLength(key, KEY_BYTES, 'item key');
  const nonce = newNonce();
  return { encryptedKey: toBase64(await seal(wrappingKey, nonce, keyAad(id), key)), keyNonce: toBase64(nonce) };
}

/**
 * The sealed fields of a new file's metadata (POST /api/upload): its name and MIME type under K,
 * and K wrapped under the key of where it goes.
 */
export async function sealFileMetadata(wrappingKey: AesKey, id: string, key: Uint8Array, name: string, mimeType: string) {
  const [sealedName, sealedMime, wrapped] = await Promise.all([
    encryptName(key, id, name),
    encryptMime(key, id, mimeType),
    wrapItemKey(wrappingKey, id, key),
  ]);
  return { ...sealedName, ...sealedMime, ...wrapped };
}

export async function unwrapItemKey(wrappingKey: AesKey, id: string, encryptedKey: string, keyNonce: string): Promise<Bytes> {
  const key = await open(wrappingKey, fromBase64(keyNonce, 'keyNonce'), keyAad(id), fromBase64(encryptedKey, 'encryptedKey'));
  if (key.length !== KEY_BYTES) fail('DECRYPT_FAILED', 'unwrapped key has the wrong length');
  return key;
}
