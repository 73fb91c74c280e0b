/**
 * The items' server state (docs/protocol.md "Files and uploads"): listings opened in the crypto
 * worker under a browse scope, the changes made to items, the query keys they live under, and the
 * rules a name must meet. The file browser (features/files), transfers, sharing and live updates
 * all build on it; it builds on none of them.
 */
export {
  ALL_ITEMS,
  TREE_DEPTH,
  createFolder,
  deleteItem,
  deleteItems,
  fetchFolder,
  fetchSubtree,
  firstPart,
  fetchTree,
  moveItem,
  moveItems,
  renameItem,
  type BatchIds,
  type FirstPart,
  type FolderListing,
  type OpeningProgress,
  withOpeningProgress,
  type UserSummary,
} from './api.ts';
// The rules a name must meet are the ones every client shares (@sealbox/rules).
export { NAME_TEXT, findNamed, freeName, isNameTaken, nameKey, nameProblem, nameTakenText } from '@sealbox/rules';
export { SORT_KEYS, SORT_LABELS, SORT_ORDERS, type SortKey, type SortOrder } from './sort-keys.ts';
export {
  changeKeys,
  FILES_CHANGE_KEY,
  REFRESH_MS,
  filesKeys,
  folderQueryOptions,
  replaceWhenWhole,
  treeQueryOptions,
  useFolder,
} from './queries.ts';
export { isListingBelow, isListingHolding } from './listing-match.ts';
export type { ItemView } from '../../model/items.ts';
export {
  deleteVersion,
  fetchVersions,
  restoreVersion,
  versionsKeys,
  versionsQueryOptions,
  type FileVersion,
  type FileVersions,
} from './versions.ts';
