/**
 * React's view of the search index: its state (the hint), and a search through it that runs again
 * whenever the index changes (an event applied, a listing taken in, a rebuild done).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { cryptoWorker } from '../../crypto/client.ts';
import { type IndexSnapshot, type SearchSection, searchIndexStore } from './search-index.ts';

/** The most matches a search brings back from the worker: the list shows them all at once. */
export const SEARCH_RESULTS_MAX = 1000;

export function useSearchIndex(): IndexSnapshot {
  return useSyncExternalStore(searchIndexStore.subscribe, searchIndexStore.get);
}

/**
 * The index's matches for `query` in `section`, when the index is ready and holds it (`usable`).
 * While the stored index is being read back (`pending`, about a second) the caller waits for it:
 * searching the old way meanwhile would fetch and open the whole tree (seconds at 100,000 items)
 * that the index answers without. Else (and with no section) the caller searches the old way.
 */
export function useIndexedSearch(query: string, section: SearchSection | undefined) {
  const { phase, generation, shared } = useSearchIndex();
  const usable = phase === 'ready' && (section === 'own' || (section === 'shared' && shared));
  const pending = phase === 'opening' && section !== undefined;
  const q = query.trim();
  const found = useQuery({
    queryKey: ['files', 'search-index', section, generation, q] as const,
    queryFn: () => cryptoWorker.call('searchIndexFind', q, SEARCH_RESULTS_MAX, section),
    enabled: usable && q !== '',
    // The last answer stays up while the next letter's is found (a few ms at 100,000 names).
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { usable, pending, found };
}
