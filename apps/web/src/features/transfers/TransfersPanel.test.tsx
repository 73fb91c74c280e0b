import { describe, expect, it } from 'vitest';
import { idleTitle } from './TransfersPanel.tsx';

describe("the panel's title once nothing runs (no upload summary)", () => {
  it('says cancelled when every row was cancelled, failed when one failed, else finished', () => {
    expect(idleTitle([{ status: 'cancelled' }])).toBe('Transfers cancelled');
    expect(idleTitle([{ status: 'cancelled' }, { status: 'cancelled' }])).toBe('Transfers cancelled');
    expect(idleTitle([{ status: 'done' }, { status: 'error' }])).toBe('Some transfers failed');
    expect(idleTitle([{ status: 'cancelled' }, { status: 'error' }])).toBe('Some transfers failed');
    expect(idleTitle([{ status: 'done' }, { status: 'cancelled' }])).toBe('Transfers finished');
    expect(idleTitle([{ status: 'done' }])).toBe('Transfers finished');
  });
});
