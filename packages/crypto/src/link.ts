import { type Bytes, fromBase64Url, toBase64Url } from './bytes.ts';
import { KEY_BYTES, checkLength } from './aead.ts';
import { CryptoError, fail } from './errors.ts';

/** The URL fragment of a share link: K as unpadded base64url. It never reaches the server. */
export function encodeLinkKey(key: Uint8Array): string {
  checkLength(key, KEY_BYTES, 'link key');
  return toBase64Url(key);
}

/** Accepts only a fragment that decodes to exactly 32 bytes; everything else is BAD_LINK_KEY. */
export function decodeLinkKey(fragment: string): Bytes {
  let key: Bytes;
  try {
    key = fromBase64Url(fragment, 'link key');
  } catch (error) {
    if (error instanceof CryptoError) fail('BAD_LINK_KEY', 'the link key is not valid base64url');
    throw error;
  }
  if (key.length !== KEY_BYTES) fail('BAD_LINK_KEY', `the link key must be ${KEY_BYTES} bytes, not ${key.length}`);
  return key;
}
