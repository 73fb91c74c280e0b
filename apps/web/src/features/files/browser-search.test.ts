import { describe, expect, it } from 'vitest';
import { type BrowserSearch, nextBrowserSearch, validateBrowserSearch, validateShareBrowserSearch } from './browser-search.ts';

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

  it('keeps page and page size, dropping defaults and anything else', () => {
    expect(validateBrowserSearch({ page: '3', pageSize: '100' })).toEqual({ page: 3, pageSize: '100' });
    expect(validateBrowserSearch({ page: 2, pageSize: 'all' })).toEqual({ page: 2, pageSize: 'all' });
    expect(validateBrowserSearch({ page: '1', pageSize: '20' })).toEqual({});
    for (const page of ['0', '-1', '2.5', 'x', '01', '9999999999']) expect(validateBrowserSearch({ page })).toEqual({});
    for (const pageSize of ['50', '0', 'All', '']) expect(validateBrowserSearch({ pageSize })).toEqual({});
  });

  it('starts at the first page when the folder, order or page size changes', () => {
    const prev: BrowserSearch = { parentId: 'a', page: 3, view: 'grid' };
    expect(nextBrowserSearch(prev, { page: 4 })).toEqual({ parentId: 'a', page: 4, view: 'grid' });
    expect(nextBrowserSearch(prev, { view: 'list' })).toEqual({ parentId: 'a', page: 3, view: 'list' });
    expect(nextBrowserSearch(prev, { parentId: 'b' })).toEqual({ parentId: 'b', view: 'grid' });
    expect(nextBrowserSearch(prev, { sortBy: 'size', sortOrder: 'asc' })).toEqual({
      parentId: 'a',
      view: 'grid',
      sortBy: 'size',
      sortOrder: 'asc',
    });
    expect(nextBrowserSearch(prev, { pageSize: '100', page: undefined })).toEqual({
      parentId: 'a',
      view: 'grid',
      pageSize: '100',
      page: undefined,
    });
  });
});
