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

export const SHARED_EMPTY_TEXT = 'No files have been shared with you yet';
/**
 * Why nothing can be added to a folder whose grant did not verify (docs/protocol.md: never a
 * parent).
 */
export const UNTRUSTED_FOLDER_TEXT = 'This share could not be verified, so nothing can be added to it';

/** The server's page (docs/protocol.md, `GET /api/shared`): more shares are fetched page by page. */
const PAGE = 1000;
/** Where the server says the next page starts (the body goes to the worker unread); absent after the last. */
const NEXT_OFFSET_HEADER = 'sealbox-next-offset';

export interface SharedListing {
  items: ItemView[];
  /** username by user id (owners, uploaders and sharers). */
  users: Record<string, string>;
}

export async function fetchShared(): Promise<SharedListing> {
  const items: ItemView[] = [];
  const users: Record<string, string> = {};
  for (let offset = 0; ; ) {
    const response = await apiBytes.shared({ limit: PAGE, offset });
    if (!response.ok) throw new HttpStatusError(response.status, 'Error fetching files.');
    const next = Number(response.headers.get(NEXT_OFFSET_HEADER) ?? Number.NaN);
    const body = await response.arrayBuffer();
    const opened = await cryptoWorker.call('openShared', transfer(body, [body]));
    items.push(...opened.files);
    for (const user of opened.users as Array<{ id?: unknown; username?: unknown }>)
      if (typeof user.id === 'string' && typeof user.username === 'string') users[user.id] = shownUsername(user.username);
    // Only forward: a server that points back cannot keep the page fetching for good.
    if (!Number.isSafeInteger(next) || next <= offset) return { items, users };
    offset = next;
  }
}

/** DELETE /api/shared type user for the caller: a recipient drops a share from their own list. */
export async function removeFromMyList(itemId: string, myUserId: string): Promise<void> {
  const { error, status } = await api.api.shared.delete({ type: 'user', fileId: itemId, userId: myUserId });
  if (error) throw new HttpStatusError(status, 'Failed to remove the share');
}
