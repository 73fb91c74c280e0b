/**
 * The state a browser screen derives from the URL, the profile and its listings: view and sort
 * (the profile's preferences are the defaults when the URL has none), the listing with its
 * docs/product.md "Messages" toasts, the tree search, the page shown, the path, the edit rights and
 * where an item lives.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { toast } from '@sealbox/ui';
import { isNoAccess } from '../../lib/http-status-error.ts';
import type { BrowseScope } from '../../model/browse-scope.ts';
import { withReason } from '../../model/failure.ts';
import type { ItemView } from '../../model/items.ts';
import { PROFILE_QUERY_KEY, sessionAtom, useProfile } from '../auth/index.ts';
import type { Crumb } from './breadcrumbs.ts';
import type { BrowserSearch, SortKey, ViewMode } from './browser-search.ts';
import { ENCRYPTED_DIRECTORY, displayName } from '../../model/item-names.ts';
import { type FolderListing, useFolder } from '../items/index.ts';
import { type SearchSection, useIndexedSearch } from '../search/index.ts';
import { DEFAULT_PAGE_SIZE, effectiveSort, paginate, searchItems, sortItems, type PageSize, type Sort } from './sorting.ts';

export const UPLOAD_BLOCKED_TEXT = 'You do not have permission to upload files here';
export const NEW_FOLDER_BLOCKED_TEXT = "You don't have permission to create folders here";

/** View and sort from the URL, else the profile's preferences; and who is looking. */
export function useBrowserView(search: BrowserSearch): { view: ViewMode; sort: Sort | undefined; myUserId: string | undefined } {
  const profile = useProfile();
  const session = useAtomValue(sessionAtom);
  const view: ViewMode = search.view ?? (profile?.gridView ? 'grid' : 'list');
  const sort = effectiveSort(search, profile ? { sortBy: profile.sortBy, sortOrder: profile.sortOrder } : undefined);
  return { view, sort, myUserId: profile?.id ?? session?.userId };
}

/**
 * The folder on screen (kept while the next one loads; polled every 5 s when `poll`), with
 * docs/product.md "Messages" toasts: a failed listing once per failure, undecryptable items once
 * per folder. `refresh` fetches it again and the profile (its quota) with it.
 */
export function useFolderListing(
  scope: BrowseScope,
  parentId: string | null,
  { poll, enabled = true }: { poll: boolean; enabled?: boolean },
) {
  const listing = useFolder(scope, parentId, { shown: true, poll, enabled });
  const queryClient = useQueryClient();
  // Once per failure: a new failure has a new errorUpdatedAt.
  // biome-ignore lint/correctness/useExhaustiveDependencies: errorUpdatedAt is the trigger, not a value read
  useEffect(() => {
    // A folder the user may not open says so in the page (FolderView), not as a fetch error.
    if (listing.isError && !isNoAccess(listing.error))
      toast(withReason('Error fetching files.', listing.error, scope, navigator.onLine), 'error');
  }, [listing.isError, listing.errorUpdatedAt]);
  const warnedFolders = useRef(new Set<string>());
  useEffect(() => {
    const data = listing.data;
    if (!data) return;
    const key = parentId ?? 'root';
    const broken = data.items.some((i) => !i.decrypted) || (data.folder !== null && !data.folder.decrypted);
    if (broken && !warnedFolders.current.has(key)) {
      warnedFolders.current.add(key);
      toast('Error decrypting file', 'error');
    }
  }, [listing.data, parentId]);
  const refresh = () => {
    void listing.refetch();
    void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
  };
  return { ...listing, refresh };
}

/** A listing's items in the order shown. */
export function useSortedItems(listing: FolderListing | undefined, sort: Sort | undefined): ItemView[] {
  const stable = useStableSort(sort);
  return useMemo(() => sortItems(listing?.items ?? [], stable, new Map(Object.entries(listing?.users ?? {}))), [listing, stable]);
}

/** The same Sort object while its values stay the same (callers derive a new one each render). */
function useStableSort(sort: Sort | undefined): Sort | undefined {
  const sortBy = sort?.sortBy;
  const sortOrder = sort?.sortOrder;
  return useMemo(() => (sortBy && sortOrder ? { sortBy, sortOrder } : undefined), [sortBy, sortOrder]);
}

/**
 * Where a search looks: a tree query's options (`treeQueryOptions(scope)` for My Files or a link,
 * the shared folders' subtrees on /shared), fetched only while a query is typed. `enabled`
 * false holds it back further (what it needs is not there yet).
 */
export type TreeSource<TQueryFnData = FolderListing, TQueryKey extends QueryKey = QueryKey> = UseQueryOptions<
  TQueryFnData,
  Error,
  FolderListing,
  TQueryKey
>;

/**
 * A tree query's options as a mode hands them over (browser-mode.ts): checked against TreeSource
 * with their own data and key types here, then kept without them, so each mode's query may differ.
 */
export function treeSource<TQueryFnData, TQueryKey extends QueryKey>(options: TreeSource<TQueryFnData, TQueryKey>): TreeSource {
  return options as unknown as TreeSource;
}

/** The sorts a partial answer of the search index can be shown under (docs/web-files.md "Search"). */
const PARTIAL_SORTS: ReadonlySet<SortKey> = new Set(['name', 'extension', 'owner']);

/** What the search looked through: the tree (or, with the index, its matches and the folders above them). */
export interface SearchTree {
  data: FolderListing | undefined;
  isLoading: boolean;
  isFetching: boolean;
}

/**
 * docs/product.md "Screens" search over every decrypted name of the tree. With `indexed` (My
 * Files' own tree, /shared's shared section) and the sealed index holding it (docs/web-files.md
 * "Search"), the crypto worker matches the names it holds and no tree is fetched; else the tree
 * is fetched once a query is typed.
 */
export function useTreeSearch<TQueryFnData = FolderListing, TQueryKey extends QueryKey = QueryKey>(
  sort: Sort | undefined,
  source: TreeSource<TQueryFnData, TQueryKey>,
  indexed?: SearchSection,
) {
  const [query, setQuery] = useState('');
  const searching = query.trim() !== '';
  const allowed = source.enabled ?? true;
  const { usable, pending, found } = useIndexedSearch(query, indexed);
  const oldWay = !usable && !pending && searching;
  const fetched = useQuery({
    ...source,
    enabled: typeof allowed === 'function' ? (q) => oldWay && allowed(q) : oldWay && allowed,
  });
  const stable = useStableSort(sort);
  const answer = found.data;
  // The names record's answer lacks sizes, dates and uploaders: under a sort by one, wait for the whole index.
  const partial = usable && answer?.partial === true;
  const held = partial && stable !== undefined && !PARTIAL_SORTS.has(stable.sortBy);
  const indexData = held ? undefined : answer;
  const tree: SearchTree = useMemo(() => {
    if (usable)
      return {
        data: indexData && { folder: null, items: [...indexData.results, ...indexData.folders], ancestors: [], users: {} },
        isLoading: found.isLoading || held,
        isFetching: found.isFetching,
      };
    // The stored index is on its way: a search waits for it, loading.
    if (pending) return { data: undefined, isLoading: searching, isFetching: searching };
    return fetched;
  }, [usable, pending, searching, indexData, held, found.isLoading, found.isFetching, fetched]);
  const results = useMemo(() => {
    if (!searching) return [];
    return sortItems(usable ? (indexData?.results ?? []) : searchItems(fetched.data?.items ?? [], query), stable);
  }, [searching, usable, indexData, fetched.data, query, stable]);
  return {
    query,
    setQuery,
    /** What the toolbar's search box takes (`BrowserControls search`). */
    box: { query, onQuery: setQuery },
    searching,
    tree,
    results,
    /** Results of the names record alone (not yet to be opened: they have no mime type or size). */
    partial,
    /** How many names matched in all (the index brings back at most SEARCH_RESULTS_MAX). */
    total: usable ? (indexData?.total ?? 0) : results.length,
    refresh: () => {
      if (oldWay) void fetched.refetch();
    },
  };
}

/** The page shown of `items`, and the page size, both kept in the URL (`page`, `pageSize`). */
export function usePages<T>(
  items: readonly T[],
  search: Pick<BrowserSearch, 'page' | 'pageSize'>,
  onSearchChange: (patch: Partial<BrowserSearch>) => void,
) {
  const pageSize: PageSize = search.pageSize === 'all' ? 0 : search.pageSize === '100' ? 100 : DEFAULT_PAGE_SIZE;
  return {
    ...paginate(items, pageSize, (search.page ?? 1) - 1),
    pageSize,
    onPage: (page: number) => onSearchChange({ page: page > 0 ? page + 1 : undefined }),
    onPageSize: (size: PageSize) =>
      onSearchChange({ pageSize: size === DEFAULT_PAGE_SIZE ? undefined : size === 0 ? 'all' : '100', page: undefined }),
  };
}

/** Home, the folders above, and the folder itself ('…' until its listing arrives). */
export function folderCrumbs(listing: FolderListing | undefined, parentId: string | null): Crumb[] {
  const crumbs: Crumb[] = [{ id: null, label: 'Home' }];
  for (const ancestor of listing?.ancestors ?? []) crumbs.push({ id: ancestor.id, label: ancestor.name ?? ENCRYPTED_DIRECTORY });
  const folder = listing?.folder ?? null;
  if (parentId) crumbs.push({ id: parentId, label: folder ? (folder.name ?? ENCRYPTED_DIRECTORY) : '…' });
  return crumbs;
}

/**
 * Link mode (/share): the path starts at the linked item (`rootId`, crumb id null), then the
 * folders below it down to the folder shown. The server's ancestors stop at the linked item.
 */
/** The linked item as the listing of folder `parentId` shows it: the folder itself at the top, an ancestor below. */
export function linkedItemOf(listing: FolderListing | undefined, parentId: string | null, rootId: string): ItemView | undefined {
  if (parentId === null || parentId === rootId) return listing?.folder ?? undefined;
  return listing?.ancestors.find((ancestor) => ancestor.id === rootId);
}

export function linkCrumbs(listing: FolderListing | undefined, parentId: string | null, rootId: string): Crumb[] {
  const root = linkedItemOf(listing, parentId, rootId);
  const crumbs: Crumb[] = [{ id: null, label: root ? displayName(root) : '…' }];
  if (parentId === null || parentId === rootId) return crumbs;
  for (const ancestor of listing?.ancestors ?? [])
    if (ancestor.id !== rootId) crumbs.push({ id: ancestor.id, label: displayName(ancestor) });
  const folder = listing?.folder ?? null;
  crumbs.push({ id: parentId, label: folder ? displayName(folder) : '…' });
  return crumbs;
}

/**
 * docs/product.md "Input rules" and "Roles": own files always take uploads and folders; elsewhere
 * the folder's edit right decides.
 */
export function editRights(parentId: string | null, folder: ItemView | null, myUserId: string | undefined) {
  const canEdit = parentId === null || folder?.ownerId === myUserId || folder?.editPermission === true;
  return {
    uploadBlocked: canEdit ? undefined : UPLOAD_BLOCKED_TEXT,
    newFolderBlocked: canEdit ? undefined : NEW_FOLDER_BLOCKED_TEXT,
  };
}

/**
 * "My Files / a / b": where an item lives, from the path of the folder shown and the tree (search).
 * Link mode: `link` names the linked item, where the path starts (and stops going up).
 */
export function locationIn(
  listing: FolderListing | undefined,
  tree: FolderListing | undefined,
  link?: { rootId: string; rootLabel: string },
): (item: ItemView) => string {
  return (item) => {
    const names = new Map<string, ItemView>();
    for (const i of [...(listing?.ancestors ?? []), ...(listing?.folder ? [listing.folder] : []), ...(tree?.items ?? [])])
      names.set(i.id, i);
    const parts: string[] = [];
    let at = item.parentId;
    while (at && at !== link?.rootId && parts.length < 25) {
      const parent = names.get(at);
      parts.unshift(parent ? displayName(parent) : ENCRYPTED_DIRECTORY);
      at = parent?.parentId ?? null;
    }
    return [link ? link.rootLabel : 'My Files', ...parts].join(' / ');
  };
}
