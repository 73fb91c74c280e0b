/**
 * Changes to items (SPEC 4-6): create a folder, rename, move, delete; each invalidates exactly
 * the listings it changed (and the profile's quota where bytes went away).
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import type { ItemView } from '../../model/items.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { createFolder, deleteItem, moveItem, renameItem } from './api.ts';
import { filesKeys } from './queries.ts';

/** The message of SPEC 8 for a failed action (permission answers get their own for folders). */
function messageOf(error: unknown, fallback: string): string {
  return error instanceof HttpStatusError ? error.message : fallback;
}

function refreshAfterChange(queryClient: QueryClient, folders: Array<string | null>, linkId?: string) {
  // Through a link: its listings are keyed by the link (the linked item's is 'root'), all refreshed.
  if (linkId) return queryClient.invalidateQueries({ queryKey: filesKeys.linkAll(linkId) });
  const unique = [...new Set(folders)];
  return Promise.all([
    ...unique.map((id) => queryClient.invalidateQueries({ queryKey: filesKeys.folder(id), exact: true })),
    queryClient.invalidateQueries({ queryKey: filesKeys.tree, exact: true }),
  ]);
}

/** `linkId`: the change is made as that share link's holder (an editor link), with `?linkId=`. */
export function useCreateFolder(linkId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parentId, name }: { parentId: string | null; name: string }) => createFolder(parentId, name, linkId),
    onSuccess: (_id, { parentId }) => refreshAfterChange(queryClient, [parentId], linkId),
    onError: (error) => {
      const status = error instanceof HttpStatusError ? error.status : 0;
      toast(status === 403 || status === 404 ? 'You cannot create folders here!' : 'Error creating folder', 'error');
    },
  });
}

export function useRenameItem(linkId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, name }: { item: ItemView; name: string }) => renameItem(item.id, name, linkId),
    // A folder's own listing shows its name in the breadcrumbs.
    onSuccess: (_r, { item }) =>
      refreshAfterChange(queryClient, item.isDirectory ? [item.parentId, item.id] : [item.parentId], linkId),
    onError: (error) => toast(messageOf(error, 'Error renaming file. Please try again later.'), 'error'),
  });
}

export function useMoveItem(linkId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, parentId }: { item: ItemView; parentId: string | null }) => moveItem(item.id, parentId, linkId),
    onSuccess: async (_r, { item, parentId }) => {
      await refreshAfterChange(queryClient, [item.parentId, parentId], linkId);
      // Everything under a moved folder has a new path (breadcrumbs) and its K a new wrapping.
      if (item.isDirectory) await queryClient.invalidateQueries({ queryKey: filesKeys.folders });
    },
    onError: (error) => toast(messageOf(error, 'Error moving file.'), 'error'),
  });
}

export function useDeleteItem(linkId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: ItemView) => deleteItem(item.id, linkId),
    onSuccess: async (_r, item) => {
      if (item.isDirectory) queryClient.removeQueries({ queryKey: filesKeys.folder(item.id), exact: true });
      await Promise.all([
        refreshAfterChange(queryClient, [item.parentId], linkId),
        // The quota shown in the sidebar (usedSpace) went down.
        queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
      ]);
    },
    onError: (error) => toast(messageOf(error, 'Error deleting file'), 'error'),
  });
}
