/**
 * React's view of the search index: its state (the hint), and a search through it that runs again
 * whenever the index changes (an event applied, a listing taken in, a rebuild done).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { cryptoWorker } from '../../crypto/client.ts';
import { type IndexSnapshot, searchIndexStore } from './search-index.ts';

/** The most matches a search brings back from the worker: the list shows them all at once. */
export const SEARCH_RESULTS_MAX = 1000;

export function useSearchIndex(): IndexSnapshot {
  return useSyncExternalStore(searchIndexStore.subscribe, searchIndexStore.get);
}

/** The index's matches for `query`, when `wanted` and the index is ready (`usable`); else the caller searches the old way. */
export function useIndexedSearch(query: string, wanted: boolean) {
  const { phase, generation } = useSearchIndex();
  const usable = wanted && phase === 'ready';
  const q = query.trim();
  const found = useQuery({
    queryKey: ['files', 'search-index', generation, q] as const,
    queryFn: () => cryptoWorker.call('searchIndexFind', q, SEARCH_RESULTS_MAX),
    enabled: usable && q !== '',
    // The last answer stays up while the next letter's is found (a few ms at 100,000 names).
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { usable, found };
}
