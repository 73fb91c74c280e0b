/**
 * The trash as server state (TanStack Query): one query for the whole list, which the /trash
 * browser, the storage meter (how much is in the trash) and the delete dialogs (whether a delete
 * goes to the trash) share. Live `trash.changed` events make it stale (features/live).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchTrash } from './api.ts';

export const trashKeys = {
  all: ['trash'] as const,
};

export function trashQueryOptions() {
  return queryOptions({ queryKey: trashKeys.all, queryFn: fetchTrash, staleTime: 5_000 });
}

/** The trash, fetched while `enabled` (signed in); polled every 5 s while live updates are down. */
export function useTrash({ enabled = true, poll = false }: { enabled?: boolean; poll?: boolean } = {}) {
  return useQuery({ ...trashQueryOptions(), enabled, refetchInterval: poll ? 5_000 : false });
}
