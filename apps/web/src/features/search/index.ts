/**
 * The sealed local search index of My Files (docs/web-files.md "Search"): started with the files
 * screen, kept current by live events and the listings opened, searched in the crypto worker.
 */
export {
  applyTreeChange,
  noteOwnListing,
  noteSharedItems,
  openKeyOf,
  recheckSearchIndex,
  resetSearchIndex,
  startSearchIndex,
  warmSearchIndex,
  type IndexSnapshot,
  type SearchSection,
  type TreeChangedEvent,
} from './search-index.ts';
export { SEARCH_RESULTS_MAX, useIndexedSearch, useSearchIndex } from './use-search-index.ts';
export { SearchIndexHint, indexingText } from './SearchIndexHint.tsx';
