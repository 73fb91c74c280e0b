/**
 * Folder listings in the query cache (own tree and /shared), picked by what they hold: the live
 * updates refresh the ones an event touched, and the browser's own changes the ones they touched.
 */
import type { Query } from '@tanstack/react-query';
import type { FolderListing } from './api.ts';
import { filesKeys } from './queries.ts';

/** A folder listing's query, with its cached answer. */
function listingIn(query: Query): { id: unknown; listing: FolderListing | undefined } | undefined {
  const [root, kind, id] = query.queryKey;
  if (root !== filesKeys.folders[0] || kind !== filesKeys.folders[1]) return undefined;
  return { id, listing: query.state.data as FolderListing | undefined };
}

/** The listing shows one of `itemIds` as a row. */
export function isListingHolding(query: Query, itemIds: ReadonlySet<string>): boolean {
  return listingIn(query)?.listing?.items.some((item) => itemIds.has(item.id)) ?? false;
}

/** The listing is of one of `folderIds` or of a folder anywhere below one. */
export function isListingBelow(query: Query, folderIds: ReadonlySet<string>): boolean {
  const found = listingIn(query);
  if (!found) return false;
  if (typeof found.id === 'string' && folderIds.has(found.id)) return true;
  return found.listing?.ancestors.some((ancestor) => folderIds.has(ancestor.id)) ?? false;
}
