import { concat, fromBase64, toHex } from './bytes.ts';
import { fail } from './errors.ts';

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes))));
}

/** SHA-256 over the encryption key's SPKI followed by the signing key's SPKI, as hex. */
export function fingerprint(publicKey: string, signingPublicKey: string): Promise<string> {
  return sha256Hex(concat(fromBase64(publicKey, 'publicKey'), fromBase64(signingPublicKey, 'signingPublicKey')));
}

/** Hex in groups of 4, the form shown wherever a user is chosen or shown. */
export function formatFingerprint(hex: string): string {
  if (!/^[0-9a-f]+$/.test(hex)) fail('BAD_INPUT', 'fingerprint must be lowercase hex');
  return hex.match(/.{1,4}/g)!.join(' ');
}

export type PinCheck = 'first-use' | 'match';

/**
 * Trust on first use: the first fingerprint seen for a user is pinned by the caller; a later
 * different one throws KEY_CHANGED and sharing must stop until the user confirms the new key.
 */
export function checkPinnedKey(pinned: string | undefined | null, current: string): PinCheck {
  if (pinned === undefined || pinned === null) return 'first-use';
  if (pinned !== current) fail('KEY_CHANGED', 'this user’s keys changed since you first saw them');
  return 'match';
}
