import { EMAIL_INVALID_TEXT, USERNAME_LENGTH_TEXT } from '@sealbox/rules';
import { DomainError } from '../errors.ts';

/** docs/product.md "Input rules" and "Limits", with the texts of "Messages" where it has them. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const EMAIL_MAX = 254;

const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Zero-width and other format characters: a name with one looks like a name without. */
const INVISIBLE = /\p{Cf}/u;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/u;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function invalid(message: string): never {
  throw new DomainError('VALIDATION', message);
}

/** Counted in characters (code points), not UTF-16 units: 'ÅsaÅsa' is six. */
export function characterCount(value: string): number {
  return [...value].length;
}

export function checkUsername(username: string): string {
  const length = characterCount(username);
  if (length < USERNAME_MIN || length > USERNAME_MAX) invalid(USERNAME_LENGTH_TEXT);
  if (CONTROL.test(username)) invalid('Username must not contain control characters.');
  if (INVISIBLE.test(username)) invalid('Username must not contain invisible characters.');
  if (username.trim() !== username) invalid('Username must not start or end with spaces.');
  return username;
}

/** '' counts as no email (an empty optional field), as null does. */
export function checkEmail(email: string | null): string | null {
  if (email === null || email === '') return null;
  if (email.length > EMAIL_MAX || !EMAIL_SHAPE.test(email) || CONTROL.test(email)) invalid(EMAIL_INVALID_TEXT);
  return email;
}

/**
 * Standard padded base64 of exactly `bytes` bytes (or a length within bounds), canonical:
 * re-encoding gives the same text, so one value has one spelling.
 */
export function checkBase64(field: string, value: string, bytes: number | { min: number; max: number }): Uint8Array<ArrayBuffer> {
  if (!BASE64.test(value)) invalid(`${field} must be base64`);
  const decoded = new Uint8Array(Buffer.from(value, 'base64'));
  if (Buffer.from(decoded).toString('base64') !== value) invalid(`${field} must be base64`);
  const ok = typeof bytes === 'number' ? decoded.length === bytes : decoded.length >= bytes.min && decoded.length <= bytes.max;
  if (!ok) {
    invalid(typeof bytes === 'number' ? `${field} must be ${bytes} bytes` : `${field} must be ${bytes.min}-${bytes.max} bytes`);
  }
  return decoded;
}

/** Ids the server makes (users) and the client makes (items) are lowercase UUID v4. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
