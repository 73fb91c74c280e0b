/**
 * The file browser (docs/product.md "Screens", "States", "Input rules", "Roles" and "Limits"): one
 * component, FileBrowser, and its modes (My Files, Files Shared with Me, a share link), which a
 * route composes with the URL's state. The items' server state it reads is features/items.
 */
export type { BrowserMode, BrowserPlace } from './browser-mode.ts';
export {
  nextBrowserSearch,
  validateBrowserSearch,
  validateShareBrowserSearch,
  type BrowserSearch,
  type ShareBrowserSearch,
  type ViewMode,
} from './browser-search.ts';
export { FileBrowser } from './FileBrowser.tsx';
export { linkMode } from './modes/link.ts';
export { ownMode } from './modes/own.ts';
export { sharedMode } from './modes/shared.ts';
export { trashMode } from './modes/trash.ts';
export { BrowseScopeContext, useBrowseScope } from './scope-context.ts';
