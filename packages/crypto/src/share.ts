import { type Bytes, fromBase64, toBase64, utf8 } from './bytes.ts';
import { KEY_BYTES, checkLength } from './aead.ts';
import { fail } from './errors.ts';
import { checkItemId } from './item.ts';
import { importEncryptionPublicKey, importSigningPublicKey, signParams } from './keys.ts';

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A share with a named user: K under the recipient's RSA key, vouched for by the sharer. */
export interface ShareGrant {
  /** Who signs it: a grant moved to another sharer's name no longer verifies. */
  sharerId: string;
  itemId: string;
  recipientId: string;
  encryptedKey: string;
  edit: boolean;
}

/** RSA-OAEP(recipient public key, K). Only keys shared with another user are RSA-wrapped. */
export async function wrapKeyForUser(recipientPublicKey: string, key: Uint8Array): Promise<string> {
  checkLength(key, KEY_BYTES, 'item key');
  const publicKey = await importEncryptionPublicKey(recipientPublicKey);
  return toBase64(new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, new Uint8Array(key))));
}

/**
 * The result stays in the browser: it is never sent to the server in any form, so the server
 * cannot use a user as an RSA decryption oracle.
 */
export async function unwrapKeyFromUser(privateKey: CryptoKey, encryptedKey: string): Promise<Bytes> {
  const ciphertext = fromBase64(encryptedKey, 'encryptedKey');
  let key: Bytes;
  try {
    key = new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, ciphertext));
  } catch {
    return fail('DECRYPT_FAILED', 'shared key does not decrypt');
  }
  if (key.length !== KEY_BYTES) fail('DECRYPT_FAILED', 'shared key has the wrong length');
  return key;
}

function checkUserId(value: unknown, field: string): string {
  if (typeof value !== 'string' || !USER_ID.test(value)) fail('BAD_INPUT', `${field} must be a UUID`);
  return value as string;
}

/**
 * Unambiguous bytes to sign (docs/protocol.md, vectors v2 `grant`): a fixed domain tag, then sharer,
 * recipient, item, wrapped key (base64 as sent) and edit flag, joined by NUL, which no field holds.
 */
export function grantMessage(grant: ShareGrant): Bytes {
  checkUserId(grant.sharerId, 'sharerId');
  checkUserId(grant.recipientId, 'recipientId');
  checkItemId(grant.itemId);
  fromBase64(grant.encryptedKey, 'encryptedKey');
  if (typeof grant.edit !== 'boolean') fail('BAD_INPUT', 'edit must be a boolean');
  const fields = [
    'sealbox:v1:grant',
    grant.sharerId,
    grant.recipientId,
    grant.itemId,
    grant.encryptedKey,
    grant.edit ? '1' : '0',
  ];
  return utf8(fields.join('\0'));
}

export async function signGrant(signingPrivateKey: CryptoKey, grant: ShareGrant): Promise<string> {
  const signature = await crypto.subtle.sign(signParams(signingPrivateKey), signingPrivateKey, grantMessage(grant));
  return toBase64(new Uint8Array(signature));
}

/** Throws BAD_SIGNATURE unless the grant was signed by the holder of `signingPublicKey`. */
export async function verifyGrant(
  signingPublicKey: string,
  grant: ShareGrant,
  signature: string | null | undefined,
): Promise<void> {
  if (typeof signature !== 'string' || signature.length === 0) fail('BAD_SIGNATURE', 'the share grant is not signed');
  const message = grantMessage(grant);
  const key = await importSigningPublicKey(signingPublicKey);
  let ok = false;
  try {
    ok = await crypto.subtle.verify(signParams(key), key, fromBase64(signature, 'signature'), message);
  } catch {
    ok = false;
  }
  if (!ok) fail('BAD_SIGNATURE', 'the share grant signature does not verify');
}
