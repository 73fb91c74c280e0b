import { describe, expect, test } from 'vitest';
import { openingText } from './FolderView.tsx';

describe('openingText (docs/web-files.md "Opening a large folder")', () => {
  test('says how many items are shown, and that the sort is only among them', () => {
    expect(openingText({ token: 1, shown: 101 }, { sortBy: 'name', sortOrder: 'asc' })).toBe(
      'Opening the rest of this folder… Its first 101 items are shown, sorted among themselves by name.',
    );
    expect(openingText({ token: 1, shown: 101 }, undefined)).toBe(
      'Opening the rest of this folder… Its first 101 items are shown.',
    );
  });

  test('with the whole answer in, how far the worker has opened it', () => {
    const partial = { token: 1, shown: 101, opening: { opened: 4096, total: 10_006 } };
    expect(openingText(partial, { sortBy: 'created', sortOrder: 'asc' })).toBe(
      'Opening the rest of this folder: 40 % of 10,006 names… Its first 101 items are shown, sorted among themselves by creation date.',
    );
  });

  test('says when the rest did not come', () => {
    expect(openingText({ token: 1, shown: 101, failed: true }, undefined)).toBe(
      'Only the first 101 items of this folder could be opened. Refresh to try again.',
    );
  });
});

describe('openingText for the shares of /shared', () => {
  test('names the shares, and how far their grants are opened', () => {
    expect(openingText({ token: 1, shown: 21, of: 'shares' }, { sortBy: 'name', sortOrder: 'asc' })).toBe(
      'Opening the rest of what is shared with you… The first 21 items are shown, sorted among themselves by name.',
    );
    expect(openingText({ token: 1, shown: 21, of: 'shares', opening: { opened: 250, total: 1000 } }, undefined)).toBe(
      'Opening the rest of what is shared with you: 25 % of 1,000 shares… The first 21 items are shown.',
    );
  });

  test('says when the rest did not come', () => {
    expect(openingText({ token: 1, shown: 21, of: 'shares', failed: true }, undefined)).toBe(
      'Only the first 21 shared items could be opened. Refresh to try again.',
    );
  });
});
