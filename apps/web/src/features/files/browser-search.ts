import { optionalEnum, optionalString } from '../../lib/search-params.ts';
import { SORT_KEYS, SORT_ORDERS, type SortKey, type SortOrder } from '../items/index.ts';

/** docs/product.md "Screens": the file browser keeps its state in the URL. */
export const VIEW_MODES = ['grid', 'list'] as const;
export type ViewMode = (typeof VIEW_MODES)[number];

export { SORT_KEYS, SORT_ORDERS, type SortKey, type SortOrder } from '../items/index.ts';

/** docs/product.md "Limits" page sizes as the URL spells them (20 is the default and left out). */
export const PAGE_SIZE_PARAMS = ['20', '100', 'all'] as const;
export type PageSizeParam = (typeof PAGE_SIZE_PARAMS)[number];

export interface BrowserSearch {
  parentId?: string;
  view?: ViewMode;
  sortBy?: SortKey;
  sortOrder?: SortOrder;
  /** 1-based, as shown ("Page 2 of 5"); absent on the first page. */
  page?: number;
  pageSize?: PageSizeParam;
}

export interface ShareBrowserSearch extends BrowserSearch {
  linkId?: string;
}

// Item ids are client-made UUID v4s (docs/protocol.md).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Link ids are opaque random tokens; allow the URL-safe alphabets they may use.
const LINK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Unknown or malformed values are dropped rather than failing the page: URLs get hand-edited. */
export function validateBrowserSearch(raw: Record<string, unknown>): BrowserSearch {
  const search: BrowserSearch = {};
  const parentId = optionalString(raw.parentId, UUID);
  const view = optionalEnum(raw.view, VIEW_MODES);
  const sortBy = optionalEnum(raw.sortBy, SORT_KEYS);
  const sortOrder = optionalEnum(raw.sortOrder, SORT_ORDERS);
  if (parentId) search.parentId = parentId;
  if (view) search.view = view;
  if (sortBy) search.sortBy = sortBy;
  if (sortOrder) search.sortOrder = sortOrder;
  const page = optionalString(String(raw.page ?? ''), /^[1-9]\d{0,8}$/);
  const pageSize = optionalEnum(raw.pageSize, PAGE_SIZE_PARAMS);
  if (page && page !== '1') search.page = Number(page);
  if (pageSize && pageSize !== '20') search.pageSize = pageSize;
  return search;
}

/**
 * The search after `patch`: a change of folder, order or page size starts again at the first
 * page (the page number meant something only in the old listing), unless the patch sets a page.
 */
export function nextBrowserSearch<S extends BrowserSearch>(prev: S, patch: Partial<S>): S {
  const next = { ...prev, ...patch };
  const relisted = (['parentId', 'sortBy', 'sortOrder', 'pageSize'] as const).some(
    (key) => key in patch && patch[key] !== prev[key],
  );
  if (relisted && !('page' in patch)) delete next.page;
  return next;
}

export function validateShareBrowserSearch(raw: Record<string, unknown>): ShareBrowserSearch {
  const linkId = optionalString(raw.linkId, LINK_ID);
  return { ...validateBrowserSearch(raw), ...(linkId ? { linkId } : {}) };
}
