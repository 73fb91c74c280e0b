/**
 * The search index being built (docs/web-files.md "Search"): one quiet line in the search area,
 * "Indexing your files for search: 40 % of 100,000 names…". Gone once it is ready; searches
 * meanwhile look through the tree as before.
 */
import { useSearchIndex } from './use-search-index.ts';
import './search-index-hint.css';

export function indexingText(progress: { opened: number; total: number } | undefined): string {
  if (!progress || progress.total === 0) return 'Indexing your files for search…';
  const percent = Math.min(100, Math.floor((progress.opened / progress.total) * 100));
  return `Indexing your files for search: ${percent} % of ${progress.total.toLocaleString('en')} names…`;
}

export function SearchIndexHint() {
  const { phase, progress } = useSearchIndex();
  if (phase !== 'building') return null;
  return (
    <p className="search-index-hint" role="status">
      {indexingText(progress)}
    </p>
  );
}
