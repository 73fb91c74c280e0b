/**
 * The search index being built (docs/web-files.md "Search"): one quiet line in the search area,
 * "Indexing your files for search: 40 % of 100,000 names…". Gone once it is ready; searches
 * meanwhile look through the tree as before.
 */
import type { SearchSection } from './search-index.ts';
import { useSearchIndex } from './use-search-index.ts';
import './search-index-hint.css';

export function indexingText(progress: { opened: number; total: number } | undefined): string {
  if (!progress || progress.total === 0) return 'Indexing your files for search…';
  const percent = Math.min(100, Math.floor((progress.opened / progress.total) * 100));
  return `Indexing your files for search: ${percent} % of ${progress.total.toLocaleString('en')} names…`;
}

/** The stored index opening, chunk by chunk: a search meanwhile shows what is open so far. */
export function openingText(progress: { opened: number; total: number }): string {
  const percent = Math.min(100, Math.floor((progress.opened / Math.max(1, progress.total)) * 100));
  return `Opening the search index: ${percent} % of ${progress.total.toLocaleString('en')} names. Results so far:`;
}

/** `searching` in `section`: a search is typed there (the opening is said only to a search of the own tree, which shows its results so far). */
export function SearchIndexHint({ searching = false, section }: { searching?: boolean; section?: SearchSection | undefined }) {
  const { phase, progress } = useSearchIndex();
  if (phase === 'opening' && progress && searching && section === 'own') {
    return (
      <p className="search-index-hint" role="status">
        {openingText(progress)}
      </p>
    );
  }
  if (phase !== 'building') return null;
  return (
    <p className="search-index-hint" role="status">
      {indexingText(progress)}
    </p>
  );
}
