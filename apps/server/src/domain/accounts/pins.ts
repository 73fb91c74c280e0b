import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { checkBase64 } from './validation.ts';

/**
 * docs/protocol.md "Key pins": the browser's trust-on-first-use pins of other users' key
 * fingerprints, sealed under the account root key. The server keeps one blob per user and
 * hands it back; it checks only shapes and sizes, and that a write names the version it read.
 */

/** Decoded ciphertext (tag included): room for thousands of pins. */
export const PINS_MAX_SEALED_BYTES = 256 * 1024;
export const PINS_NONCE_BYTES = 12;
/** Base64 of the largest sealed blob, plus the nonce, the version and the JSON around them. */
export const PINS_MAX_SEALED_CHARS = Math.ceil(PINS_MAX_SEALED_BYTES / 3) * 4;
export const PINS_REQUEST_MAX_BYTES = PINS_MAX_SEALED_CHARS + 1024;

export const PINS_CHANGED = 'Pins changed on another device';
export const PINS_TOO_LARGE = `Pins are larger than ${PINS_MAX_SEALED_BYTES} bytes`;

export interface StoredPins {
  sealed: string | null;
  nonce: string | null;
  /** 0: nothing stored yet. */
  version: number;
}

export async function readPins(deps: AccountsDeps, userId: string): Promise<StoredPins> {
  const found = await deps.pins.find(userId);
  return found ? { sealed: found.sealed, nonce: found.nonce, version: found.version } : { sealed: null, nonce: null, version: 0 };
}

export interface PinsWrite {
  sealed: string;
  nonce: string;
  /** The version the client read (and sealed its changes on top of). */
  version: number;
}

const PINS_WRITE_KEYS = ['nonce', 'sealed', 'version'];

/**
 * The PUT body exactly: an object with these three keys and no other (a client that sends
 * more is not one this server knows), of these types, unconverted.
 */
export function checkPinsWrite(body: unknown): PinsWrite {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('VALIDATION', 'Expected { sealed, nonce, version }');
  }
  const keys = Object.keys(body).sort();
  if (keys.length !== PINS_WRITE_KEYS.length || keys.some((key, i) => key !== PINS_WRITE_KEYS[i])) {
    throw new DomainError('VALIDATION', 'Expected exactly the keys sealed, nonce and version');
  }
  const { sealed, nonce, version } = body as Record<string, unknown>;
  if (typeof sealed !== 'string' || typeof nonce !== 'string') {
    throw new DomainError('VALIDATION', 'sealed and nonce must be base64 strings');
  }
  // The next version must be a safe integer too.
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0 || version >= Number.MAX_SAFE_INTEGER) {
    throw new DomainError('VALIDATION', 'version must be a non-negative integer');
  }
  // An oversize blob is 413 like an oversize body, whether or not the body announced its size.
  const sealedBytes = checkBase64('sealed', sealed, { min: 1, max: Number.MAX_SAFE_INTEGER }).length;
  if (sealedBytes > PINS_MAX_SEALED_BYTES) throw new DomainError('TOO_LARGE', PINS_TOO_LARGE);
  checkBase64('nonce', nonce, PINS_NONCE_BYTES);
  return { sealed, nonce, version };
}

/** 409 CONFLICT, nothing changed, when another write has landed since `version` was read. */
export async function writePins(deps: AccountsDeps, userId: string, body: unknown): Promise<{ version: number }> {
  const write = checkPinsWrite(body);
  const version = await deps.pins.compareAndSet(
    userId,
    write.version,
    { sealed: write.sealed, nonce: write.nonce },
    deps.clock(),
  );
  if (version === undefined) throw new DomainError('CONFLICT', PINS_CHANGED);
  return { version };
}
