import { describe, expect, it } from 'vitest';
import { formatBytes, formatSpeed, formatTimeLeft } from './format-size.ts';

describe('sizes in binary units (docs/product.md "Limits")', () => {
  it('formats bytes, speeds and times left', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5.0 MiB');
    expect(formatBytes(1024 ** 3)).toBe('1.0 GiB');
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatSpeed(1536)).toBe('1.5 KiB/s');
    expect(formatTimeLeft(undefined)).toBeUndefined();
    expect(formatTimeLeft(0.2)).toBe('1 s');
    expect(formatTimeLeft(59)).toBe('59 s');
    expect(formatTimeLeft(61)).toBe('2 min');
    expect(formatTimeLeft(3600)).toBe('1 h');
    expect(formatTimeLeft(3900)).toBe('1 h 5 min');
  });
});
