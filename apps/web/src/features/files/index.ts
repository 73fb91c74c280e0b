/**
 * The file browser (SPEC 2, 4-6, 9): its parts, which each route composes into what it shows
 * (/files, /shared, and later /share), the state they derive, and the files' server state.
 */
export { deleteItem, fetchSubtree, type FolderListing, type UserSummary } from './api.ts';
export { BrowserBody, BrowserFrame, BrowserHeader, BrowserMain, UploadButton } from './BrowserFrame.tsx';
export { BrowserControls, BrowserPath, BrowserToolbar } from './BrowserToolbar.tsx';
export {
  NEW_FOLDER_BLOCKED_TEXT,
  UPLOAD_BLOCKED_TEXT,
  editRights,
  folderCrumbs,
  linkCrumbs,
  locationIn,
  useBrowserView,
  useFolderListing,
  usePages,
  useSortedItems,
  useTreeSearch,
} from './browser-state.ts';
export {
  nextBrowserSearch,
  validateBrowserSearch,
  validateShareBrowserSearch,
  type BrowserSearch,
  type ShareBrowserSearch,
  type SortKey,
  type ViewMode,
} from './browser-search.ts';
export { EmptyState, FolderContents } from './FolderContents.tsx';
export { FolderView } from './FolderView.tsx';
export { ItemDialogs, useDialogState, type DialogState } from './ItemDialogs.tsx';
export type { ItemAction } from './ItemMenu.tsx';
export { freeName, nameKey } from './name-rules.ts';
export { Pagination } from './Pagination.tsx';
export { SIGN_IN_TO_ACCESS_TEXT } from './Sidebar.tsx';
export { BrowseScopeContext, useBrowseScope } from './scope-context.ts';
export { ItemRulesContext, type BulkAction, type ItemRules } from './item-rules.ts';
export { NO_EDIT_TEXT } from './ItemMenu.tsx';
export { REFRESH_MS, filesKeys, folderQueryOptions, treeQueryOptions } from './queries.ts';
export { SearchResults } from './SearchResults.tsx';
export { SORT_LABELS, nextSort, type Sort } from './sorting.ts';
export type { ItemView } from '../../model/items.ts';
