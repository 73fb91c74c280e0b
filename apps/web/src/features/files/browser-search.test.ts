import { describe, expect, it } from 'vitest';
import { validateBrowserSearch, validateShareBrowserSearch } from './browser-search.ts';

describe('file browser search params', () => {
  it('keeps valid values', () => {
    const parentId = '6f1c1d2e-5b8a-4c3d-9e0f-1a2b3c4d5e6f';
    expect(validateBrowserSearch({ parentId, view: 'grid', sortBy: 'size', sortOrder: 'desc' })).toEqual({
      parentId,
      view: 'grid',
      sortBy: 'size',
      sortOrder: 'desc',
    });
  });

  it('drops invalid values instead of failing the page', () => {
    expect(validateBrowserSearch({ parentId: '../x', view: 'tiles', sortBy: 'color', sortOrder: 'up' })).toEqual({});
  });

  it('adds linkId on /share', () => {
    expect(validateShareBrowserSearch({ linkId: 'AbC_123-x', view: 'list' })).toEqual({ linkId: 'AbC_123-x', view: 'list' });
    expect(validateShareBrowserSearch({ linkId: 'a b' })).toEqual({});
  });
});
