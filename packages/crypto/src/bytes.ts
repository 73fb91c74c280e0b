import { fail } from './errors.ts';

/** WebCrypto's types insist on ArrayBuffer-backed views; this alias keeps that promise visible. */
export type Bytes = Uint8Array<ArrayBuffer>;

const STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;

export function randomBytes(length: number): Bytes {
  return crypto.getRandomValues(new Uint8Array(length));
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Strict standard base64 with padding: anything else is refused rather than guessed at. */
export function fromBase64(text: string, field = 'value'): Bytes {
  if (typeof text !== 'string' || !STD.test(text)) fail('BAD_INPUT', `${field} is not valid base64`);
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Unpadded base64url only; a padded or non-canonical string is refused. */
export function fromBase64Url(text: string, field = 'value'): Bytes {
  if (typeof text !== 'string' || !URL_SAFE.test(text) || text.length % 4 === 1) {
    fail('BAD_INPUT', `${field} is not valid base64url`);
  }
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = fromBase64(std + '='.repeat((4 - (std.length % 4)) % 4), field);
  if (toBase64Url(bytes) !== text) fail('BAD_INPUT', `${field} is not canonical base64url`);
  return bytes;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function utf8(text: string): Bytes {
  return encoder.encode(text) as Bytes;
}

export function fromUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    return fail('DECRYPT_FAILED', 'decrypted text is not valid UTF-8');
  }
}

export function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function u32be(value: number): Bytes {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** WebCrypto takes any view of an ArrayBuffer; only views of other buffers (shared memory) need a copy. */
export function own(bytes: Uint8Array): Bytes {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Bytes) : new Uint8Array(bytes);
}
