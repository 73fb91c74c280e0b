import { describe, expect, it } from 'vitest';
import { settleEach } from './settle-each.ts';

describe('settleEach', () => {
  it('runs every item, never more than the limit at once, and reports each in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const ok = await settleEach([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, async (n) => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (n % 3) * 5));
      running -= 1;
      if (n % 4 === 0) throw new Error(`no ${n}`);
    });
    expect(most).toBe(4);
    expect([...started].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ok).toEqual([true, true, true, false, true, true, true, false, true, true]);
  });

  it('an act that throws before returning a promise fails only its own item', async () => {
    const act = (n: number): Promise<void> => {
      if (n === 2) throw new Error('at once');
      return Promise.resolve();
    };
    expect(await settleEach([1, 2, 3], 2, act)).toEqual([true, false, true]);
    expect(await settleEach([1, 2, 3], Number.NaN, act)).toEqual([true, false, true]);
  });

  it('handles nothing to do, and a limit above the count', async () => {
    expect(await settleEach([], 4, async () => undefined)).toEqual([]);
    expect(await settleEach(['a'], 4, async () => Promise.reject(new Error('x')))).toEqual([false]);
  });
});
