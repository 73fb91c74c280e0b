/**
 * GET /api/shared as /shared shows it: the items shared with the signed-in user. The answer's
 * bytes go to the crypto worker, which checks each grant against the sharer's pinned keys and
 * unwraps its key there (workers/sharing.ts); the page gets views back, never keys.
 */
import { api, apiBytes } from '../../../lib/api.ts';
import { shownUsername } from '../../../model/item-names.ts';
import { HttpStatusError } from '../../../lib/http-status-error.ts';
import { cryptoWorker } from '../../../crypto/client.ts';
import { transfer } from '../../../lib/worker-rpc.ts';
import type { ItemView } from '../../../model/items.ts';
import { type FirstPart, type OpeningProgress, firstPart, withOpeningProgress } from '../../items/index.ts';

export const SHARED_EMPTY_TEXT = 'No files have been shared with you yet';
/**
 * Why nothing can be added to a folder whose grant did not verify (docs/protocol.md: never a
 * parent).
 */
export const UNTRUSTED_FOLDER_TEXT = 'This share could not be verified, so nothing can be added to it';

/** The server's page (docs/protocol.md, `GET /api/shared`): more shares are fetched page by page. */
const PAGE = 1000;
/**
 * docs/web-files.md "The first shares of /shared": the shares first asked for, the list's first
 * page at its default size of 20 rows (each grant costs an RSA unwrap, ~5 ms, so a thousand are
 * seconds). More follow when the server names a next offset (it does for a full page, so a list
 * of exactly 20 asks once more, for the same 20); the whole list is asked for then and replaces
 * them.
 */
export const FIRST_SHARES = 20;
/** Where the server says the next page starts (the body goes to the worker unread); absent after the last. */
const NEXT_OFFSET_HEADER = 'sealbox-next-offset';

export interface SharedListing {
  items: ItemView[];
  /** username by user id (owners, uploaders and sharers). */
  users: Record<string, string>;
  /** Set while only the first shares are in (the server's order); the whole list is on its way. */
  partial?: FirstPart;
}

/**
 * One page of GET /api/shared, opened in the crypto worker into `into`; answers where the next
 * page starts, or null after the last. Progress is the worker's over this page's grants.
 */
async function openPage(
  into: SharedListing,
  page: { limit: number; offset: number },
  onProgress?: OpeningProgress,
): Promise<number | null> {
  const response = await apiBytes.shared(page);
  if (!response.ok) throw new HttpStatusError(response.status, 'Error fetching files.');
  const next = Number(response.headers.get(NEXT_OFFSET_HEADER) ?? Number.NaN);
  const body = await response.arrayBuffer();
  const opened = await withOpeningProgress(onProgress, (port) => cryptoWorker.call('openShared', transfer(body, [body]), port));
  into.items.push(...opened.files);
  for (const user of opened.users as Array<{ id?: unknown; username?: unknown }>)
    if (typeof user.id === 'string' && typeof user.username === 'string') into.users[user.id] = shownUsername(user.username);
  // Only forward: a server that points back cannot keep the page fetching for good.
  return Number.isSafeInteger(next) && next > page.offset ? next : null;
}

/** Every share, page after page; progress counts the grants opened over the pages so far. */
export async function fetchShared(onProgress?: OpeningProgress): Promise<SharedListing> {
  const listing: SharedListing = { items: [], users: {} };
  for (let offset: number | null = 0; offset !== null; ) {
    const before = listing.items.length;
    const report = onProgress && ((opened: number, total: number) => onProgress(before + opened, before + total));
    offset = await openPage(listing, { limit: PAGE, offset }, report);
  }
  return listing;
}

/**
 * The first FIRST_SHARES shares, opened at once, and when the server says more follow, `rest`,
 * which asks for the whole list (its first shares' grants are not opened again: the worker's
 * memo). `rest` is null when `first` is the whole list.
 */
export async function fetchSharedFirst(): Promise<{
  first: SharedListing;
  rest: ((onProgress?: OpeningProgress) => Promise<SharedListing>) | null;
}> {
  const first: SharedListing = { items: [], users: {} };
  const next = await openPage(first, { limit: FIRST_SHARES, offset: 0 });
  if (next === null) return { first, rest: null };
  return { first: firstPart(first, 'shares'), rest: fetchShared };
}

/** DELETE /api/shared type user for the caller: a recipient drops a share from their own list. */
export async function removeFromMyList(itemId: string, myUserId: string): Promise<void> {
  const { error, status } = await api.api.shared.delete({ type: 'user', fileId: itemId, userId: myUserId });
  if (error) throw new HttpStatusError(status, 'Failed to remove the share');
}
