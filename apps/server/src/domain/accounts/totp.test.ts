import { describe, expect, test } from 'bun:test';
import { stepOfCode, totpUri } from './totp.ts';

// RFC 6238 appendix B, SHA-1, secret "12345678901234567890" (base32 below); the RFC prints
// 8 digits, authenticator apps show the last 6.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  test.each(VECTORS)('RFC 6238 SHA-1 at T=%d: %s', async (seconds, code) => {
    expect(await stepOfCode(RFC_SECRET, code.slice(-6), seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  test('one step either side is accepted, two are not', async () => {
    const [seconds, code] = VECTORS[3]!;
    const step = Math.floor(seconds / 30);
    expect(await stepOfCode(RFC_SECRET, code.slice(-6), (seconds + 30) * 1000)).toBe(step);
    expect(await stepOfCode(RFC_SECRET, code.slice(-6), (seconds - 30) * 1000)).toBe(step);
    expect(await stepOfCode(RFC_SECRET, code.slice(-6), (seconds + 60) * 1000)).toBeNull();
  });

  test.each(['', '12345', '1234567', 'abcdef', ' 94287'])('malformed code %p is no match', async (code) => {
    expect(await stepOfCode(RFC_SECRET, code, 59_000)).toBeNull();
  });

  test('the otpauth URI names the issuer and the account', () => {
    const uri = new URL(totpUri('alice smith', RFC_SECRET));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(RFC_SECRET);
    expect(uri.searchParams.get('issuer')).toBe('Sealbox');
    expect(decodeURIComponent(uri.pathname)).toContain('Sealbox:alice smith');
  });
});
