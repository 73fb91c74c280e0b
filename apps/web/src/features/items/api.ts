/**
 * The files endpoints of docs/protocol.md ("Files and uploads") as the browser uses them, with
 * every key operation in the crypto worker (workers/items.ts): the UI sends names in and gets
 * decrypted views back, never keys.
 */
import { api, apiBytes } from '../../lib/api.ts';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { cryptoWorker } from '../../crypto/client.ts';
import { transfer } from '../../lib/worker-rpc.ts';
import { type BrowseScope, SHARED_SCOPE, scopeQuery } from '../../model/browse-scope.ts';
import { shownUsername } from '../../model/item-names.ts';
import type { ItemView, OpenedListing } from '../../model/items.ts';

export type { ItemView } from '../../model/items.ts';

import { ALL_ITEMS, TREE_DEPTH } from '../../model/listing-limits.ts';

export { ALL_ITEMS, TREE_DEPTH };

export interface UserSummary {
  id: string;
  username: string;
  avatarExtension: string | null;
}

export interface FolderListing {
  /** The listed folder (null at the top level). */
  folder: ItemView | null;
  /** Its children, in the server's order. */
  items: ItemView[];
  /** Folders from the top level down to the listed folder's parent. */
  ancestors: ItemView[];
  /** username by user id (owners and uploaders of everything above). */
  users: Record<string, string>;
  /**
   * Set while only the first FIRST_ITEMS + 1 items of a larger folder are in (the server's
   * order: creation time): the whole folder is on its way (`fetchFolderFirst`). Every item
   * shown is opened; the order over the folder and its count are not final until it arrives.
   */
  partial?: FirstPart;
}

/**
 * A listing of which only the first items are in (docs/web-files.md "Opening a large folder"; the
 * shares of /shared likewise): the whole is on its way and replaces it, unless an answer with
 * another token came first.
 */
export interface FirstPart {
  token: number;
  shown: number;
  /** Of the whole, once its answer is in: how many items the worker has opened so far, of how many. */
  opening?: { opened: number; total: number };
  failed?: true;
  /** What is being opened, for the hint: a folder (the default) or the list of shares. */
  of?: 'shares';
}

/**
 * docs/web-files.md "Opening a large folder": a folder is first asked for this many items and
 * one more; when the one more comes, the whole folder is asked for next and replaces it.
 */
export const FIRST_ITEMS = 100;

/**
 * GET /api/file. The answer's bytes go to the crypto worker untouched (transferred, not copied):
 * it parses the JSON and opens every item there, so a folder of 10,000 items costs the UI thread
 * almost nothing. A byte call through `apiFetch`, so the app-wide 401/429 rules apply.
 */
async function fetchListing(
  scope: BrowseScope,
  query: { id?: string; depth: number; includeAncestors?: boolean; limit?: number },
  onProgress?: OpeningProgress,
): Promise<{ listing: FolderListing; decryptMs: number }> {
  const response = await apiBytes.listing({
    ...scopeQuery(scope),
    depth: query.depth,
    limit: query.limit ?? ALL_ITEMS,
    offset: 0,
    ...(query.id ? { id: query.id } : {}),
    ...(query.includeAncestors ? { includeAncestors: true } : {}),
  });
  if (!response.ok) throw new HttpStatusError(response.status, 'Error fetching files.');
  const body = await response.arrayBuffer();
  const fetched = performance.now();
  // The bytes move to the worker (not copied): they are read nowhere else.
  const opened: OpenedListing = await withOpeningProgress(onProgress, (port) =>
    cryptoWorker.call('openListing', scope, transfer(body, [body]), port),
  );
  const users: Record<string, string> = {};
  // Usernames come from the server: their bidi controls are written out before any is shown.
  for (const user of opened.users) users[user.id] = shownUsername(user.username);
  const listing = { folder: opened.root, items: opened.files, ancestors: opened.ancestors, users };
  return { listing, decryptMs: performance.now() - fetched };
}

/** How many items of a listing the crypto worker has opened, of how many (after each slice). */
export type OpeningProgress = (opened: number, total: number) => void;

/**
 * Runs the worker call `call` with a port on which the worker reports `{ opened, total }` to
 * `onProgress` (no port without it); the page's end is closed once the call has answered.
 */
export async function withOpeningProgress<T>(
  onProgress: OpeningProgress | undefined,
  call: (port: MessagePort | undefined) => Promise<T>,
): Promise<T> {
  if (!onProgress) return call(undefined);
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<{ opened: number; total: number }>) =>
    onProgress(event.data.opened, event.data.total);
  try {
    return await call(channel.port2);
  } finally {
    channel.port1.close();
  }
}

/** GET /api/file for one folder (null: the top level), `limit` items of it, marked for the benches. */
async function fetchFolderItems(
  scope: BrowseScope,
  parentId: string | null,
  limit: number,
  mark: string,
  onProgress?: OpeningProgress,
): Promise<FolderListing> {
  const started = performance.now();
  const { listing, decryptMs } = await fetchListing(
    scope,
    parentId ? { id: parentId, depth: 1, includeAncestors: true, limit } : { depth: 1, limit },
    onProgress,
  );
  // For bench/listing: how long the server answer and the decryption in the worker took (the
  // last 50 kept, so a bench finds its folder's even when another listing came after it).
  if (performance.getEntriesByName(mark).length >= 50) performance.clearMarks(mark);
  performance.mark(mark, {
    detail: { folder: parentId, items: listing.items.length, fetchMs: performance.now() - started - decryptMs, decryptMs },
  });
  return listing;
}

/**
 * One folder (null: the top level), with the path above it, opened in `scope`. In a link's
 * scope, null is the linked item itself (a folder with its contents, or one file) and the path
 * stops at it. The link's key must be in the crypto worker first (`useLinkKey` of the sharing feature).
 */
export function fetchFolder(scope: BrowseScope, parentId: string | null): Promise<FolderListing> {
  return fetchFolderItems(scope, parentId, ALL_ITEMS, 'files:listing');
}

let partialTokens = 0;

/** `listing` marked as the first part of a larger whole, with a token of its own. */
export function firstPart<T extends { items: readonly unknown[] }>(listing: T, of?: FirstPart['of']): T & { partial: FirstPart } {
  return { ...listing, partial: { token: ++partialTokens, shown: listing.items.length, ...(of ? { of } : {}) } };
}

/**
 * docs/web-files.md "Opening a large folder": the folder's first FIRST_ITEMS + 1 items (a small
 * answer, opened at once), and when there are more, `rest`, which asks for the whole folder (the
 * caller starts it once the first items are on screen, so it competes with neither their
 * opening nor their render). The items of `first` are opened in the same key ring as the whole
 * folder's, so opening the whole one does not open them again. `rest` is null when `first` is
 * the whole folder.
 */
export async function fetchFolderFirst(
  scope: BrowseScope,
  parentId: string | null,
): Promise<{ first: FolderListing; rest: ((onProgress?: OpeningProgress) => Promise<FolderListing>) | null }> {
  const first = await fetchFolderItems(scope, parentId, FIRST_ITEMS + 1, 'files:listing');
  if (first.items.length <= FIRST_ITEMS) return { first, rest: null };
  return {
    first: firstPart(first),
    rest: (onProgress) => fetchFolderItems(scope, parentId, ALL_ITEMS, 'files:listing-whole', onProgress),
  };
}

/** Everything under the top level (or the linked item, in a link's scope), 20 levels deep (search over decrypted names). */
export async function fetchTree(scope: BrowseScope): Promise<FolderListing> {
  return (await fetchListing(scope, { depth: TREE_DEPTH })).listing;
}

/**
 * Everything under folder `id`, 20 levels deep: the folder (`folder`) and its descendants with
 * their parent links. Its key must already be in the crypto worker (a grant opened by /shared).
 */
export async function fetchSubtree(id: string): Promise<FolderListing> {
  return (await fetchListing(SHARED_SCOPE, { id, depth: TREE_DEPTH })).listing;
}

/** The query of a change made in `scope`: `?linkId=` as a share link's holder (an editor link). */
function changeQuery(scope: BrowseScope) {
  return scope.kind === 'link' ? { query: scopeQuery(scope) } : {};
}

/** POST /api/upload with folder metadata (multipart, no file). Answers the new folder's id. */
export async function createFolder(scope: BrowseScope, parentId: string | null, name: string): Promise<string> {
  const metadata = await cryptoWorker.call('newFolder', scope, parentId, name);
  const { data, error, status } = await api.api.upload.post({ metadata: JSON.stringify(metadata) }, changeQuery(scope));
  if (error) throw new HttpStatusError(status, 'Error creating folder');
  return data.id;
}

export async function renameItem(scope: BrowseScope, id: string, name: string): Promise<void> {
  const sealed = await cryptoWorker.call('renameItem', scope, id, name);
  const { error, status } = await api.api.file({ id }).put({ type: 'rename', ...sealed }, changeQuery(scope));
  if (error) throw new HttpStatusError(status, 'Error renaming file. Please try again later.');
}

export async function moveItem(scope: BrowseScope, id: string, parentId: string | null): Promise<void> {
  const wrapped = await cryptoWorker.call('moveItem', scope, id, parentId);
  const { error, status } = await api.api.file({ id }).put({ type: 'move', parentId, ...wrapped }, changeQuery(scope));
  if (error) throw new HttpStatusError(status, 'Error moving file.');
}

/** docs/protocol.md "Batch changes": the most items one batch call names. */
const BATCH_MAX = 5000;

/** Which items of a batch the server changed and which it refused (or that never went). */
export interface BatchIds {
  done: string[];
  failed: string[];
}

/** `ids` BATCH_MAX at a time, in order. */
function inChunks(ids: readonly string[]): string[][] {
  return Array.from({ length: Math.ceil(ids.length / BATCH_MAX) }, (_, i) => ids.slice(i * BATCH_MAX, (i + 1) * BATCH_MAX));
}

/** Adds one call's answer for `chunk` to `out`: an item the answer does not say went, failed. */
function tally(out: BatchIds, chunk: readonly string[], results: ReadonlyArray<{ id: string; ok: boolean }>): void {
  const ok = new Set(results.filter((result) => result.ok).map((result) => result.id));
  for (const id of chunk) (ok.has(id) ? out.done : out.failed).push(id);
}

/** Sends `ids` BATCH_MAX at a time; a call that fails as a whole fails its items. */
async function inBatches(ids: readonly string[], send: (chunk: string[]) => Promise<Array<{ id: string; ok: boolean }>>) {
  const out: BatchIds = { done: [], failed: [] };
  for (const chunk of inChunks(ids)) tally(out, chunk, await send(chunk));
  return out;
}

/**
 * POST /api/file/batch/move: a selection into `parentId`, each K wrapped for it in the worker. The
 * worker wraps the next call's keys while the server answers the one before (a tenth of a second
 * per thousand keys, bench/batch).
 */
export async function moveItems(scope: BrowseScope, ids: readonly string[], parentId: string | null): Promise<BatchIds> {
  const out: BatchIds = { done: [], failed: [] };
  const chunks = inChunks(ids);
  const wrap = (chunk: string[] | undefined) => {
    if (!chunk) return undefined;
    const wrapping = cryptoWorker.call('moveItems', scope, chunk, parentId);
    // Awaited in its turn; a call failing before then must not leave it unheard.
    wrapping.catch(() => undefined);
    return wrapping;
  };
  let next = wrap(chunks[0]);
  for (let i = 0; next; i++) {
    const chunk = chunks[i]!;
    const wrapped = await next;
    next = wrap(chunks[i + 1]);
    const items = wrapped.filter((entry) => entry !== null);
    const sent = items.map((item) => item.id);
    // A key the worker could not wrap (the item not open in this scope) never goes.
    out.failed.push(...chunk.filter((_, j) => wrapped[j] === null));
    if (items.length === 0) continue;
    const { data, error, status } = await api.api.file.batch.move.post({ parentId, items }, changeQuery(scope));
    if (error) throw new HttpStatusError(status, 'Error moving file.');
    tally(out, sent, data.results);
  }
  return out;
}

/** POST /api/file/batch/delete: a selection, each to its owner's trash (or for good). */
export function deleteItems(scope: BrowseScope, ids: readonly string[]): Promise<BatchIds> {
  return inBatches(ids, async (chunk) => {
    const { data, error, status } = await api.api.file.batch.delete.post({ ids: chunk }, changeQuery(scope));
    if (error) throw new HttpStatusError(status, 'Error deleting file');
    return data.results;
  });
}

export async function deleteItem(scope: BrowseScope, id: string): Promise<void> {
  const { error, status } = await api.api.file({ id }).delete(undefined, changeQuery(scope));
  if (error) throw new HttpStatusError(status, 'Error deleting file');
}
