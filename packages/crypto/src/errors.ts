/** Every failure of the crypto layer carries a stable code; callers branch on it, never on null. */
export type CryptoErrorCode =
  | 'BAD_INPUT' // malformed argument: wrong length, bad base64, bad id
  | 'DECRYPT_FAILED' // authentication failed: wrong key, tampered data, wrong context
  | 'TRUNCATED' // a chunked stream ended before its last chunk
  | 'BAD_LINK_KEY' // a share-link fragment that is not exactly 32 bytes of base64url
  | 'KDF_TOO_WEAK' // KDF parameters below the built-in minimum (downgrade attempt)
  | 'BAD_SIGNATURE' // a share grant whose signature is wrong or missing
  | 'KEY_CHANGED' // a user's public keys differ from the ones pinned on first use
  | 'UNSUPPORTED'; // the runtime lacks a required primitive

export class CryptoError extends Error {
  override readonly name = 'CryptoError';
  constructor(
    readonly code: CryptoErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function fail(code: CryptoErrorCode, message: string): never {
  throw new CryptoError(code, message);
}

export function isCryptoError(error: unknown, code?: CryptoErrorCode): error is CryptoError {
  return error instanceof CryptoError && (code === undefined || error.code === code);
}
