import { fromBase64, fromUtf8, toBase64, utf8 } from './bytes.ts';
import { newNonce, open, seal } from './aead.ts';
import { fail } from './errors.ts';

/**
 * Key pins (docs/protocol.md): for each user id, the fingerprint of their keys as first seen. Sealed
 * under the account root key and stored by the server, which can neither read nor alter them;
 * the AAD names the owner, so one user's sealed pins do not open as another's.
 */
export type Pins = Record<string, string>;

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FINGERPRINT = /^[0-9a-f]{64}$/;

const pinsAad = (ownerId: string) => `sealbox:v1:pins:${ownerId}`;

export async function sealPins(rootKey: CryptoKey, ownerId: string, pins: Pins): Promise<{ sealed: string; nonce: string }> {
  checkPins(pins);
  const nonce = newNonce();
  const sealed = await seal(rootKey, nonce, pinsAad(ownerId), utf8(JSON.stringify(pins)));
  return { sealed: toBase64(sealed), nonce: toBase64(nonce) };
}

/** Throws DECRYPT_FAILED when the blob was altered, made for another owner or is not pins. */
export async function openPins(rootKey: CryptoKey, ownerId: string, sealed: string, nonce: string): Promise<Pins> {
  const plain = await open(rootKey, fromBase64(nonce, 'nonce'), pinsAad(ownerId), fromBase64(sealed, 'sealed'));
  let pins: unknown;
  try {
    pins = JSON.parse(fromUtf8(plain));
  } catch {
    return fail('DECRYPT_FAILED', 'pins are not JSON');
  }
  if (!isPins(pins)) fail('DECRYPT_FAILED', 'pins are malformed');
  return pins as Pins;
}

function isPins(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([id, print]) => USER_ID.test(id) && typeof print === 'string' && FINGERPRINT.test(print));
}

function checkPins(pins: Pins): void {
  if (!isPins(pins)) fail('BAD_INPUT', 'pins map user ids to hex fingerprints');
}
