import { describe, expect, test } from 'vitest';
import { AHEAD_BYTES, AHEAD_FILES, aheadOf, fetchingAhead } from './fetch-ahead.ts';

describe('a zip fetches its files a few ahead', () => {
  test('small files: the wanted one and AHEAD_FILES more, folders skipped', () => {
    const sizes = [10, null, 10, 10, null, 10, 10, 10, 10];
    expect(aheadOf(sizes, 0)).toEqual([0, 2, 3, 5, 6].slice(0, AHEAD_FILES + 1));
    expect(aheadOf(sizes, 7)).toEqual([7, 8]);
    // A zip's columns mark a folder -1.
    expect(
      aheadOf(
        Float64Array.from(sizes, (size) => size ?? -1),
        0,
      ),
    ).toEqual([0, 2, 3, 5, 6].slice(0, AHEAD_FILES + 1));
  });

  test('large files: no more than AHEAD_BYTES beyond the wanted one, however large it is', () => {
    const big = AHEAD_BYTES / 2 + 1;
    expect(aheadOf([AHEAD_BYTES * 10, big, big, 1], 0)).toEqual([0, 1]);
  });

  test('each entry is fetched once, in order, and a failure ahead shows only when taken', async () => {
    const started: number[] = [];
    const take = fetchingAhead([1, 1, null, 1, 1, 1, 1, 1], async (i) => {
      started.push(i);
      if (i === 4) throw new Error('gone');
      return `file ${i}`;
    });
    expect(await take(0)).toBe('file 0');
    expect(started).toEqual([0, 1, 3, 4, 5]);
    expect(await take(1)).toBe('file 1');
    expect(await take(3)).toBe('file 3');
    expect(started).toEqual([0, 1, 3, 4, 5, 6, 7]);
    await expect(take(4)).rejects.toThrow('gone');
    await expect(take(4)).rejects.toThrow('taken twice');
  });
});
