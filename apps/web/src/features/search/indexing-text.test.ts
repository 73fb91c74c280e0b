import { describe, expect, test } from 'vitest';
import { indexingText } from './SearchIndexHint.tsx';

describe('the indexing hint', () => {
  test('says how far, in whole percent of the names, once it knows how many', () => {
    expect(indexingText(undefined)).toBe('Indexing your files for search…');
    expect(indexingText({ opened: 0, total: 0 })).toBe('Indexing your files for search…');
    expect(indexingText({ opened: 40_999, total: 100_000 })).toBe('Indexing your files for search: 40 % of 100,000 names…');
    expect(indexingText({ opened: 1200, total: 1000 })).toBe('Indexing your files for search: 100 % of 1,000 names…');
  });
});
