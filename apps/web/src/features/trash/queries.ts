/**
 * The trash as server state (TanStack Query): one query for the whole list, which the /trash
 * browser, the storage meter (how much is in the trash) and the delete dialogs (whether a delete
 * goes to the trash) share. Live `trash.changed` events make it stale (features/live).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchTrash, fetchTrashSummary } from './api.ts';

export const trashKeys = {
  /** Both queries below: what a change to the trash makes stale. */
  all: ['trash'] as const,
  list: ['trash', 'list'] as const,
  summary: ['trash', 'summary'] as const,
};

export function trashQueryOptions() {
  return queryOptions({ queryKey: trashKeys.list, queryFn: fetchTrash, staleTime: 5_000 });
}

/**
 * The trash's bytes and retention for every screen (the meter, the delete dialogs): one small
 * answer, without opening every trashed item in the worker on each page.
 */
export function useTrashSummary({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: trashKeys.summary, queryFn: fetchTrashSummary, staleTime: 5_000, enabled });
}

/** The trash's list, opened (/trash); polled every 5 s while live updates are down. */
export function useTrash({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({ ...trashQueryOptions(), refetchInterval: poll ? 5_000 : false });
}
