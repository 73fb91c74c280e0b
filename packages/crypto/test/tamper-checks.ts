/** What every tamper test checks with: the error code a call must fail with, and bit flips of a field. */
import { expect, spyOn } from 'bun:test';
import { fromBase64, toBase64 } from '../src/bytes.ts';
import { CryptoError } from '../src/errors.ts';

export async function expectCode(promise: Promise<unknown> | (() => unknown), code: string): Promise<void> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code as string).toBe(code);
    return;
  }
  throw new Error(`expected ${code}, but it succeeded`);
}

/** Every single-bit flip position we try: first, second, middle and last byte of a field. */
export function flips(b64: string): string[] {
  const bytes = fromBase64(b64);
  const positions = [...new Set([0, 1, bytes.length >> 1, bytes.length - 1])];
  return positions.map((p) => {
    const copy = new Uint8Array(bytes);
    copy[p]! ^= 0x01;
    return toBase64(copy);
  });
}

/**
 * Runs `refusals` and checks none of them touched the password or a KDF primitive: parameters a
 * hostile server sends must be refused before any work is spent on them.
 */
export async function expectNothingDerived(refusals: () => Promise<void>): Promise<void> {
  const encode = spyOn(TextEncoder.prototype, 'encode');
  const importKey = spyOn(crypto.subtle, 'importKey');
  const deriveBits = spyOn(crypto.subtle, 'deriveBits');
  try {
    await refusals();
    expect(encode).not.toHaveBeenCalled();
    expect(importKey).not.toHaveBeenCalled();
    expect(deriveBits).not.toHaveBeenCalled();
  } finally {
    encode.mockRestore();
    importKey.mockRestore();
    deriveBits.mockRestore();
  }
}
