/**
 * Server state of the file browser through TanStack Query: one query per folder listing and one
 * for the whole tree (search), as `queryOptions` the routes' loaders and the components share.
 * Other features (uploads, live updates) invalidate through `filesKeys` (mutations.ts changes).
 */
import { type QueryClient, type QueryKey, keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import type { BrowseScope } from '../../model/browse-scope.ts';
import { type FirstPart, type FolderListing, type OpeningProgress, fetchFolder, fetchFolderFirst, fetchTree } from './api.ts';

export const filesKeys = {
  all: ['files'] as const,
  /** Every folder listing of the own tree and of /shared (a link's are under linkAll). */
  folders: ['files', 'folder'] as const,
  /**
   * The listing of one folder as `scope` opens it (null: its top level). The scope is part of the
   * key (model/browse-scope.ts): a folder opened under one ring's keys is never shown in another.
   * A link's listings sit under its linkAll; the others under `folderInAnyScope(id)`.
   */
  folder: (scope: BrowseScope, id: string | null) =>
    scope.kind === 'link'
      ? (['files', 'link', scope.linkId, id ?? 'root'] as const)
      : (['files', 'folder', id ?? 'root', scope.kind] as const),
  /** A folder's listing in My Files and in /shared alike (a change to it makes both stale). */
  folderInAnyScope: (id: string | null) => ['files', 'folder', id ?? 'root'] as const,
  /** The own tree's search tree; a link's is `tree(linkScope)`, /shared's the sharing feature's. */
  tree: (scope: BrowseScope) =>
    scope.kind === 'link' ? (['files', 'link', scope.linkId, 'tree'] as const) : (['files', 'tree'] as const),
  linkAll: (linkId: string) => ['files', 'link', linkId] as const,
};

/**
 * docs/product.md "States" and "Limits": file metadata refreshes every 5 seconds while live updates
 * are down.
 */
export const REFRESH_MS = 5_000;

/** Once the frame after now is out (at most 100 ms: a hidden tab draws no frames). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

/**
 * docs/web-files.md "Opening a large folder": `first` (marked `partial`) was the answer; once it is
 * painted, `rest` asks for the whole, its progress goes into the first part's hint, and the whole
 * replaces the first part in the cache unless a newer answer came meanwhile. If the whole fails,
 * the first part stays, said to be all there is for now (a refresh asks again).
 */
export function replaceWhenWhole<T extends { partial?: FirstPart }>(
  client: QueryClient,
  queryKey: QueryKey,
  first: T,
  rest: (onProgress: OpeningProgress) => Promise<T>,
): void {
  const token = first.partial?.token;
  const still = (old: T | undefined) => old?.partial?.token === token;
  const mark = (patch: Partial<FirstPart>) =>
    client.setQueryData<T>(queryKey, (old) =>
      still(old) && old?.partial ? { ...old, partial: { ...old.partial, ...patch } } : old,
    );
  afterPaint()
    .then(() => rest((opened, total) => mark({ opening: { opened, total } })))
    .then(
      (whole) => client.setQueryData<T>(queryKey, (old) => (still(old) ? whole : old)),
      () => mark({ failed: true }),
    );
}

/**
 * One folder's listing in `scope` (null: its top level), with the path above it. `firstItems`
 * (the folder on screen, and the routes' loaders for it): docs/web-files.md "Opening a large
 * folder": the first FIRST_ITEMS + 1 items of a folder not held yet are the answer at once
 * (`partial` set), and the whole folder replaces them when it is open, unless a newer answer came
 * first. A folder already held whole (the 5 s refresh, a change) is asked for whole.
 */
export function folderQueryOptions(scope: BrowseScope, parentId: string | null, { firstItems = false } = {}) {
  return queryOptions({
    queryKey: filesKeys.folder(scope, parentId),
    queryFn: async ({ client, queryKey }): Promise<FolderListing> => {
      const held = client.getQueryData<FolderListing>(queryKey);
      if (!firstItems || (held && !held.partial)) return fetchFolder(scope, parentId);
      const { first, rest } = await fetchFolderFirst(scope, parentId);
      if (rest) replaceWhenWhole(client, queryKey, first, rest);
      return first;
    },
    staleTime: REFRESH_MS,
    // A 4xx (gone, not yours) will not change by asking again.
    retry: (count, error) => !(error instanceof HttpStatusError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

/** Everything under the top level of `scope` (My Files, or a link's item), 20 levels deep (search over decrypted names). */
export function treeQueryOptions(scope: BrowseScope) {
  return queryOptions({
    queryKey: filesKeys.tree(scope),
    queryFn: () => fetchTree(scope),
    staleTime: REFRESH_MS,
  });
}

/**
 * `shown`: the folder on screen (kept while the next one loads); `poll`: refresh every 5 s,
 * for when the live socket is down (features/live).
 */
export function useFolder(
  scope: BrowseScope,
  parentId: string | null,
  { shown = false, poll = false, enabled = true }: { shown?: boolean; poll?: boolean; enabled?: boolean } = {},
) {
  return useQuery({
    // The folder on screen shows its first items while the rest are opened.
    ...folderQueryOptions(scope, parentId, { firstItems: shown }),
    enabled,
    // A refresh is skipped while one is still running (the fetch is shared), so slow answers never pile up.
    refetchInterval: poll ? REFRESH_MS : false,
    refetchIntervalInBackground: false,
    placeholderData: shown ? keepPreviousData : undefined,
  });
}

/**
 * The mutation keys of the browser's changes (features/files runs them; the live updates hold
 * their refreshes while a bulk one is under way).
 */
export const FILES_CHANGE_KEY = ['files-change'] as const;
export const changeKeys = {
  create: [...FILES_CHANGE_KEY, 'create'] as const,
  rename: [...FILES_CHANGE_KEY, 'rename'] as const,
  move: [...FILES_CHANGE_KEY, 'move'] as const,
  delete: [...FILES_CHANGE_KEY, 'delete'] as const,
  moveMany: [...FILES_CHANGE_KEY, 'move-many'] as const,
  deleteMany: [...FILES_CHANGE_KEY, 'delete-many'] as const,
};
