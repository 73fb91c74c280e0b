/**
 * Sorting, pagination and the responsive layout rules of the file browser (docs/product.md
 * "Screens" and "Limits"). Pure functions: the components only feed them the items, the URL state
 * and the width.
 */
import type { ItemView } from '../../model/items.ts';
import { ANONYMOUS_UPLOADER } from '../../model/uploader.ts';
import type { SortKey, SortOrder } from './browser-search.ts';
import { displayName } from './format.ts';

export interface Sort {
  sortBy: SortKey;
  sortOrder: SortOrder;
}

/** Who an id is, for the owner and uploader columns. */
export type UserNames = ReadonlyMap<string, string>;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function keyOf(item: ItemView, sortBy: SortKey, users: UserNames): string | number {
  switch (sortBy) {
    case 'name':
      return displayName(item);
    case 'size':
      return item.size;
    case 'created':
      return item.createdAt;
    case 'modified':
      return item.modifiedAt;
    case 'owner':
      return users.get(item.ownerId) ?? '';
    case 'uploader':
      return item.uploaderId === null ? ANONYMOUS_UPLOADER : (users.get(item.uploaderId) ?? '');
    case 'extension':
      return item.extension;
  }
}

/**
 * Folders first, then files; within each, by the sort (ties by name, then id, so the order is
 * stable across refreshes). Without a sort, the server's order (creation time) is kept.
 */
export function sortItems(items: readonly ItemView[], sort: Sort | undefined, users: UserNames = new Map()): ItemView[] {
  const out = [...items];
  const direction = sort?.sortOrder === 'desc' ? -1 : 1;
  out.sort((a, b) => {
    if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
    if (!sort) return 0;
    const ka = keyOf(a, sort.sortBy, users);
    const kb = keyOf(b, sort.sortBy, users);
    let c = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : collator.compare(String(ka), String(kb));
    if (c === 0 && sort.sortBy !== 'name') c = collator.compare(displayName(a), displayName(b));
    if (c === 0) c = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return c * direction;
  });
  return out;
}

/** Header clicks cycle asc → desc → cleared; a click on another column starts it at asc. */
export function nextSort(current: Partial<Sort>, column: SortKey): Partial<Sort> {
  if (current.sortBy !== column) return { sortBy: column, sortOrder: 'asc' };
  if ((current.sortOrder ?? 'asc') === 'asc') return { sortBy: column, sortOrder: 'desc' };
  return {};
}

/** The URL's sort, or else the profile's preferred one (docs/product.md "Screens", preferences). */
export function effectiveSort(url: Partial<Sort>, preferred: Partial<Sort> | undefined): Sort | undefined {
  if (url.sortBy) return { sortBy: url.sortBy, sortOrder: url.sortOrder ?? 'asc' };
  if (preferred?.sortBy) return { sortBy: preferred.sortBy, sortOrder: url.sortOrder ?? preferred.sortOrder ?? 'asc' };
  return undefined;
}

/** docs/product.md "Limits": 20, 100 or All (0 = all); default 20. */
export const PAGE_SIZES = [20, 100, 0] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 20;

export interface Page<T> {
  items: T[];
  page: number;
  pageCount: number;
  total: number;
  /** 1-based positions of the first and last item shown (0 and 0 when empty). */
  from: number;
  to: number;
}

export function paginate<T>(items: readonly T[], pageSize: PageSize, page: number): Page<T> {
  const total = items.length;
  if (pageSize === 0 || total === 0) {
    return { items: [...items], page: 0, pageCount: 1, total, from: total ? 1 : 0, to: total };
  }
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(0, Math.trunc(page) || 0), pageCount - 1);
  const start = current * pageSize;
  const slice = items.slice(start, start + pageSize);
  return { items: slice, page: current, pageCount, total, from: start + 1, to: start + slice.length };
}

export const LIST_COLUMNS = ['name', 'extension', 'size', 'created', 'modified', 'uploader', 'owner', 'actions'] as const;
/** The trash's list (docs/web-files.md "Trash"): where each item was and when it was deleted. */
export const TRASH_COLUMNS = ['name', 'location', 'deleted', 'size', 'actions'] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number] | (typeof TRASH_COLUMNS)[number];

export const COLUMN_LABELS: Record<ListColumn, string> = {
  name: 'Name',
  extension: 'Ext',
  size: 'Size',
  created: 'Created',
  modified: 'Modified',
  uploader: 'Uploader',
  owner: 'Owner',
  actions: 'Actions',
  location: 'Deleted from',
  deleted: 'Deleted',
};

/**
 * Columns shown at a viewport width (docs/product.md "Screens": hidden progressively below 800,
 * 1000, 1200 and 1400 px). Name, Size and Actions always stay.
 */
export function visibleColumns(width: number, trash = false): ListColumn[] {
  const hidden = new Set<ListColumn>();
  if (trash) {
    // Name, Size and Actions always stay, as in every listing; the place, then the date go first.
    if (width < 1000) hidden.add('location');
    if (width < 600) hidden.add('deleted');
    return TRASH_COLUMNS.filter((c) => !hidden.has(c));
  }
  if (width < 1400) hidden.add('uploader');
  if (width < 1200) hidden.add('created');
  if (width < 1000) hidden.add('owner');
  if (width < 800) {
    hidden.add('extension');
    hidden.add('modified');
  }
  return LIST_COLUMNS.filter((c) => !hidden.has(c));
}

/** docs/product.md "Screens": 2 columns under 600 px, 3 under 900, 4 under 1100, otherwise 6. */
export function gridColumns(width: number): number {
  if (width < 600) return 2;
  if (width < 900) return 3;
  if (width < 1100) return 4;
  return 6;
}

/** Case-insensitive match of decrypted names (undecryptable items never match). */
export function searchItems(items: readonly ItemView[], query: string): ItemView[] {
  const q = query.trim().toLocaleLowerCase();
  if (q === '') return [];
  return items.filter((item) => item.name?.toLocaleLowerCase().includes(q));
}
