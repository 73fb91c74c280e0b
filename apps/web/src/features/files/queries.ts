/**
 * Server state of the file browser through TanStack Query: one query per folder listing and one
 * for the whole tree (search), as `queryOptions` the routes' loaders and the components share.
 * Other features (uploads, live updates) invalidate through `filesKeys` (mutations.ts changes).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { fetchFolder, fetchTree } from './api.ts';

export const filesKeys = {
  all: ['files'] as const,
  folders: ['files', 'folder'] as const,
  /** The listing of one folder; null = the top level of My Files. */
  folder: (id: string | null) => ['files', 'folder', id ?? 'root'] as const,
  tree: ['files', 'tree'] as const,
  /** A folder reached through a share link (null: the linked item). */
  linkFolder: (linkId: string, id: string | null) => ['files', 'link', linkId, id ?? 'root'] as const,
  linkAll: (linkId: string) => ['files', 'link', linkId] as const,
  linkTree: (linkId: string) => ['files', 'link', linkId, 'tree'] as const,
};

/** SPEC 4 and 9: file metadata refreshes every 5 seconds while live updates are down. */
export const REFRESH_MS = 5_000;

/** One folder's listing (null: the top level of My Files), with the path above it. */
export function folderQueryOptions(parentId: string | null, linkId?: string) {
  return queryOptions({
    queryKey: linkId ? filesKeys.linkFolder(linkId, parentId) : filesKeys.folder(parentId),
    queryFn: () => fetchFolder(parentId, linkId),
    staleTime: REFRESH_MS,
    // A 4xx (gone, not yours) will not change by asking again.
    retry: (count, error) => !(error instanceof HttpStatusError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

/** Everything under the top level, 20 levels deep (search over decrypted names). */
export function treeQueryOptions(linkId?: string) {
  return queryOptions({
    queryKey: linkId ? filesKeys.linkTree(linkId) : filesKeys.tree,
    queryFn: () => fetchTree(linkId),
    staleTime: REFRESH_MS,
  });
}

/**
 * `shown`: the folder on screen (kept while the next one loads); `poll`: refresh every 5 s,
 * for when the live socket is down (features/live).
 */
export function useFolder(
  parentId: string | null,
  {
    shown = false,
    poll = false,
    enabled = true,
    linkId,
  }: { shown?: boolean; poll?: boolean; enabled?: boolean; linkId?: string } = {},
) {
  return useQuery({
    ...folderQueryOptions(parentId, linkId),
    enabled,
    // A refresh is skipped while one is still running (the fetch is shared), so slow answers never pile up.
    refetchInterval: poll ? REFRESH_MS : false,
    refetchIntervalInBackground: false,
    placeholderData: shown ? keepPreviousData : undefined,
  });
}
