import { describe, expect, test } from 'bun:test';
import { fromBase64, fromBase64Url, fromUtf8, toBase64, toBase64Url } from './bytes.ts';
import type { CryptoError } from './errors.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as CryptoError).code;
  }
  return 'none';
};

describe('base64', () => {
  test('round trips every length up to 70 and large inputs', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n));
      expect(fromBase64(toBase64(bytes))).toEqual(bytes);
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    }
    const big = crypto.getRandomValues(new Uint8Array(200_000));
    expect(fromBase64(toBase64(big))).toEqual(big);
    expect(toBase64(big)).toBe(Buffer.from(big).toString('base64'));
  });

  test('standard base64 needs its padding and refuses other alphabets', () => {
    for (const bad of ['QQ', 'QQ=', 'Q===', 'QUJD-A==', 'QUJD_A==', ' QUJD', 'QUJD\n'])
      expect(code(() => fromBase64(bad))).toBe('BAD_INPUT');
  });

  test('base64url refuses padding, the standard alphabet and non-canonical tails', () => {
    for (const bad of ['QQ==', 'QUJD+A', 'QUJD/A', 'QR', 'Q']) expect(code(() => fromBase64Url(bad))).toBe('BAD_INPUT');
  });

  test('invalid UTF-8 after decryption is a decryption failure, not mojibake', () => {
    expect(code(() => fromUtf8(new Uint8Array([0xff, 0xfe])))).toBe('DECRYPT_FAILED');
  });
});
