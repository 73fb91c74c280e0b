/**
 * The sharing feature's server state: a share link's info (GET /api/shared/{linkId}), per link.
 * The listings of a link's items are the files feature's (`folderQueryOptions(id, linkId)`).
 */
import { queryOptions } from '@tanstack/react-query';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { listBlocks } from './blocks-api.ts';
import { fetchLink } from './link-access/link-api.ts';
import { replaceWhenWhole } from '../items/index.ts';
import { type SharedListing, fetchShared, fetchSharedFirst } from './shared-with-me/shared-api.ts';
import { fetchSharedSubtrees } from './shared-with-me/shared-tree.ts';

export const sharingKeys = {
  all: ['sharing'] as const,
  /** Every link's info (GET /api/shared/{linkId}). */
  anyLink: ['sharing', 'link'] as const,
  link: (linkId: string) => ['sharing', 'link', linkId] as const,
  /** GET /api/shared: what was shared with the signed-in user. */
  shared: ['sharing', 'shared'] as const,
  /** Every subtree under the shared folders (search on /shared); live share and item events drop them all. */
  sharedTrees: ['sharing', 'shared', 'tree'] as const,
  sharedTree: (folderIds: readonly string[]) => ['sharing', 'shared', 'tree', ...folderIds] as const,
  /** GET /api/shared/{fileId}/users: who has an access entry on the item (owner's view). */
  users: (itemId: string) => ['sharing', 'users', itemId] as const,
  /** GET /api/shared/{fileId}/links: the item's links (owner's view). */
  links: (itemId: string) => ['sharing', 'links', itemId] as const,
  /** GET /api/blocks: the accounts the user blocks. */
  blocks: ['sharing', 'blocks'] as const,
};

export function linkQueryOptions(linkId: string) {
  return queryOptions({
    queryKey: sharingKeys.link(linkId),
    queryFn: () => fetchLink(linkId),
    staleTime: Number.POSITIVE_INFINITY,
    retry: (count, error) => !(error instanceof HttpStatusError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

/**
 * What was shared with the signed-in user; live events keep it fresh (5 s while offline).
 * `firstItems` (/shared's top, on screen): the first shares at once, and the whole list replaces
 * them when it is open (docs/web-files.md "Opening a large folder"); a list already held whole
 * is asked for whole, so a refresh never shows the first shares alone.
 */
export function sharedQueryOptions({ firstItems = false } = {}) {
  return queryOptions({
    queryKey: sharingKeys.shared,
    queryFn: async ({ client, queryKey }): Promise<SharedListing> => {
      const held = client.getQueryData<SharedListing>(queryKey);
      if (!firstItems || (held && !held.partial)) return fetchShared();
      const { first, rest } = await fetchSharedFirst();
      if (rest) replaceWhenWhole(client, queryKey, first, rest);
      return first;
    },
    staleTime: 5_000,
    retry: (count, error) => !(error instanceof HttpStatusError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

/** The subtrees of the shared folders `folderIds` (search on /shared: see shared-tree.ts). */
export function sharedTreeQueryOptions(folderIds: readonly string[]) {
  return queryOptions({
    queryKey: sharingKeys.sharedTree(folderIds),
    queryFn: () => fetchSharedSubtrees(folderIds),
    staleTime: 5_000,
  });
}

/** The accounts the user blocks (Profile); `blocks.changed` events keep it fresh. */
export function blocksQueryOptions() {
  return queryOptions({ queryKey: sharingKeys.blocks, queryFn: listBlocks, retry: false });
}
