import { describe, expect, it } from 'bun:test';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_LENGTH,
  formatRecoveryCode,
  isRecoveryCodeShape,
  normaliseRecoveryCode,
  recoveryCodeFromBytes,
} from './recovery-codes.ts';

describe('recovery codes', () => {
  it('use 32 distinct characters without look-alikes', () => {
    expect(RECOVERY_CODE_ALPHABET.length).toBe(32);
    expect(new Set(RECOVERY_CODE_ALPHABET).size).toBe(32);
    for (const lookalike of ['0', 'o', '1', 'l']) expect(RECOVERY_CODE_ALPHABET).not.toContain(lookalike);
    expect(RECOVERY_CODE_ALPHABET).toBe(RECOVERY_CODE_ALPHABET.toLowerCase());
  });

  it('normalise to lower case without spaces and hyphens', () => {
    expect(normaliseRecoveryCode('ABCDE-FGHJK')).toBe('abcdefghjk');
    expect(normaliseRecoveryCode(' abcde fghjk\t')).toBe('abcdefghjk');
    expect(normaliseRecoveryCode('ab-cd--ef gh  jk')).toBe('abcdefghjk');
    expect(normaliseRecoveryCode('')).toBe('');
  });

  it('have their shape checked after normalising', () => {
    for (const typed of ['abcde-fghjk', 'ABCDEFGHJK', ' 23456 789ab ', 'zzzzz-zzzzz'])
      expect(isRecoveryCodeShape(typed)).toBe(true);
    for (const typed of [
      '',
      '123456',
      'abcde-fghj',
      'abcde-fghjkm',
      // Characters outside the alphabet: look-alikes, punctuation, letters beyond ASCII.
      'abcde-fghj0',
      'abcde-fghjo',
      'abcde-fghj1',
      'abcde-fghjl',
      'abcde_fghjk',
      'abcde-fghjé',
    ]) {
      expect(isRecoveryCodeShape(typed)).toBe(false);
    }
  });

  it('are shown as two groups of five', () => {
    expect(formatRecoveryCode('abcdefghjk')).toBe('abcde-fghjk');
    expect(formatRecoveryCode('ABCDE FGHJK')).toBe('abcde-fghjk');
  });

  it('are made from random bytes, five bits of each', () => {
    const bytes = Uint8Array.from({ length: RECOVERY_CODE_LENGTH }, (_, i) => i * 37);
    const code = recoveryCodeFromBytes(bytes);
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(isRecoveryCodeShape(code)).toBe(true);
    expect(recoveryCodeFromBytes(new Uint8Array(RECOVERY_CODE_LENGTH))).toBe('22222-22222');
    expect(recoveryCodeFromBytes(new Uint8Array(RECOVERY_CODE_LENGTH).fill(255))).toBe('zzzzz-zzzzz');
    // Only the low 5 bits: 0x20 + 3 reads as 3.
    expect(recoveryCodeFromBytes(new Uint8Array(RECOVERY_CODE_LENGTH).fill(0x23))).toBe('55555-55555');
    expect(() => recoveryCodeFromBytes(new Uint8Array(9))).toThrow(RangeError);
  });
});
