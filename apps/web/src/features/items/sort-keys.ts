/**
 * What a list of items can be sorted by (docs/product.md "Screens"), with the names shown for each
 * key.
 */
export const SORT_KEYS = ['name', 'size', 'created', 'modified', 'owner', 'uploader', 'extension'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * docs/product.md "Screens" names for the sort keys (the file browser's menus and the profile's
 * preferences).
 */
export const SORT_LABELS: Record<SortKey, string> = {
  name: 'Name',
  size: 'Size',
  created: 'Creation Date',
  modified: 'Modification Date',
  owner: 'Owner',
  uploader: 'Uploader',
  extension: 'Extension',
};
