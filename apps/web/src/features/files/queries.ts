/**
 * Server state of the file browser through TanStack Query: one query per folder listing, one
 * for the whole tree (search), and mutations that invalidate exactly what they changed.
 * Other features (uploads) invalidate through `filesKeys` too.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { PROFILE_QUERY_KEY } from '../auth/auth-state.ts';
import { createFolder, deleteItem, fetchFolder, fetchTree, moveItem, renameItem, type ItemView } from './api.ts';
import { HttpStatusError } from '../../lib/http-status-error.ts';

export const filesKeys = {
  all: ['files'] as const,
  folders: ['files', 'folder'] as const,
  /** The listing of one folder; null = the top level of My Files. */
  folder: (id: string | null) => ['files', 'folder', id ?? 'root'] as const,
  tree: ['files', 'tree'] as const,
};

/** SPEC 4 and 9: file metadata refreshes every 5 seconds while live updates are down. */
export const REFRESH_MS = 5_000;

export function folderQuery(parentId: string | null) {
  return {
    queryKey: filesKeys.folder(parentId),
    queryFn: () => fetchFolder(parentId),
    staleTime: REFRESH_MS,
  };
}

/**
 * `shown`: the folder on screen (kept while the next one loads); `poll`: refresh every 5 s,
 * for when the live socket is down (features/live).
 */
export function useFolder(parentId: string | null, { shown = false, poll = false, enabled = true } = {}) {
  return useQuery({
    ...folderQuery(parentId),
    enabled,
    // A refresh is skipped while one is still running (the fetch is shared), so slow answers never pile up.
    refetchInterval: poll ? REFRESH_MS : false,
    refetchIntervalInBackground: false,
    placeholderData: shown ? keepPreviousData : undefined,
    retry: (count, error) => !(error instanceof HttpStatusError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

export function useTree(enabled: boolean) {
  return useQuery({ queryKey: filesKeys.tree, queryFn: fetchTree, enabled, staleTime: REFRESH_MS });
}

/** The message of SPEC 8 for a failed action (permission answers get their own for folders). */
function messageOf(error: unknown, fallback: string): string {
  return error instanceof HttpStatusError ? error.message : fallback;
}

function refreshAfterChange(queryClient: QueryClient, folders: Array<string | null>) {
  const unique = [...new Set(folders)];
  return Promise.all([
    ...unique.map((id) => queryClient.invalidateQueries({ queryKey: filesKeys.folder(id), exact: true })),
    queryClient.invalidateQueries({ queryKey: filesKeys.tree, exact: true }),
  ]);
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parentId, name }: { parentId: string | null; name: string }) => createFolder(parentId, name),
    onSuccess: (_id, { parentId }) => refreshAfterChange(queryClient, [parentId]),
    onError: (error) => {
      const status = error instanceof HttpStatusError ? error.status : 0;
      toast(status === 403 || status === 404 ? 'You cannot create folders here!' : 'Error creating folder', 'error');
    },
  });
}

export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, name }: { item: ItemView; name: string }) => renameItem(item.id, name),
    // A folder's own listing shows its name in the breadcrumbs.
    onSuccess: (_r, { item }) => refreshAfterChange(queryClient, item.isDirectory ? [item.parentId, item.id] : [item.parentId]),
    onError: (error) => toast(messageOf(error, 'Error renaming file. Please try again later.'), 'error'),
  });
}

export function useMoveItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, parentId }: { item: ItemView; parentId: string | null }) => moveItem(item.id, parentId),
    onSuccess: async (_r, { item, parentId }) => {
      await refreshAfterChange(queryClient, [item.parentId, parentId]);
      // Everything under a moved folder has a new path (breadcrumbs) and its K a new wrapping.
      if (item.isDirectory) await queryClient.invalidateQueries({ queryKey: filesKeys.folders });
    },
    onError: (error) => toast(messageOf(error, 'Error moving file.'), 'error'),
  });
}

export function useDeleteItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: ItemView) => deleteItem(item.id),
    onSuccess: async (_r, item) => {
      if (item.isDirectory) queryClient.removeQueries({ queryKey: filesKeys.folder(item.id), exact: true });
      await Promise.all([
        refreshAfterChange(queryClient, [item.parentId]),
        // The quota shown in the sidebar (usedSpace) went down.
        queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
      ]);
    },
    onError: (error) => toast(messageOf(error, 'Error deleting file'), 'error'),
  });
}
