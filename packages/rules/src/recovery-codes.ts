/**
 * TOTP recovery codes (docs/protocol.md "TOTP recovery codes"): ten one-time codes, each accepted
 * once in place of a TOTP code. The server makes them; both sides read them the same way.
 */

/** 32 characters without look-alikes (no 0/o, no 1/l): each one carries 5 bits. */
export const RECOVERY_CODE_ALPHABET = '23456789abcdefghijkmnpqrstuvwxyz';
/** Characters per code: 50 bits, far beyond guessing under the TOTP rate limit. */
export const RECOVERY_CODE_LENGTH = 10;
/** Codes made at once (TOTP confirm, or made again from Profile). */
export const RECOVERY_CODE_COUNT = 10;
/** Profile warns from this many codes left down. */
export const RECOVERY_CODES_FEW = 3;

export const INVALID_RECOVERY_CODE_TEXT = 'That recovery code is not right or was already used.';

/** A code as typed, in the form it is checked and stored in: lower case, without spaces and hyphens. */
export function normaliseRecoveryCode(typed: string): string {
  return typed.replace(/[\s-]+/g, '').toLowerCase();
}

/** Whether `typed` (normalised first) is shaped like a recovery code; says nothing about whether it is one. */
export function isRecoveryCodeShape(typed: string): boolean {
  const code = normaliseRecoveryCode(typed);
  return code.length === RECOVERY_CODE_LENGTH && [...code].every((c) => RECOVERY_CODE_ALPHABET.includes(c));
}

/** A code as shown: two groups of five, `xxxxx-xxxxx`. */
export function formatRecoveryCode(code: string): string {
  const plain = normaliseRecoveryCode(code);
  const half = RECOVERY_CODE_LENGTH / 2;
  return `${plain.slice(0, half)}-${plain.slice(half)}`;
}

/** A code from RECOVERY_CODE_LENGTH random bytes (only each byte's low 5 bits count), as shown. */
export function recoveryCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== RECOVERY_CODE_LENGTH) throw new RangeError(`a recovery code takes ${RECOVERY_CODE_LENGTH} bytes`);
  return formatRecoveryCode(Array.from(bytes, (b) => RECOVERY_CODE_ALPHABET[b & 31]).join(''));
}
