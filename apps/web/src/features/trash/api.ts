/**
 * The trash's calls (docs/protocol.md "Trash") as the browser makes them: the list, opened in the
 * crypto worker under the account's own keys (a trashed item keeps its parent and wrapped key),
 * restore, delete forever and empty. Names and the path each item was deleted from are read
 * here, never by the server.
 */
import { api } from '../../lib/api.ts';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { cryptoWorker } from '../../crypto/client.ts';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import { shownUsername } from '../../model/item-names.ts';
import type { ItemView, ServerItem } from '../../model/items.ts';

/** The server's page size for GET /api/trash (its largest). */
const PAGE = 1000;

export const TRASH_FETCH_ERROR_TEXT = 'Error fetching the trash.';
export const MY_FILES_LABEL = 'My Files';

type TrashPage = Awaited<ReturnType<typeof api.api.trash.get>>['data'] & {};

export interface TrashListing {
  /** The trashed items (what each delete named), each with `trashed` facts. */
  items: ItemView[];
  /** Every byte the trash holds, subtrees included (counted on the quota). */
  bytes: number;
  /** Days an item stays before the server deletes it for good (0: never kept). */
  retentionDays: number;
  /** Names by user id (who deleted what). */
  users: Record<string, string>;
}

/**
 * The ids above `item`, nearest first, with each folder the list gave (undefined past the last
 * it gave). Bounded: a hostile answer could make the folders a loop.
 */
function* above(item: ItemView, folders: ReadonlyMap<string, ItemView>): Generator<[string, ItemView | undefined]> {
  let parentId = item.parentId;
  for (let depth = 0; parentId !== null && depth < 64; depth++) {
    const folder = folders.get(parentId);
    yield [parentId, folder];
    if (!folder) return;
    parentId = folder.parentId;
  }
}

/** "My Files / Photos / 2024": the decrypted path above an item, from the folders the list gave. */
export function pathAbove(item: ItemView, folders: ReadonlyMap<string, ItemView>): string {
  const names = [...above(item, folders)].map(([, folder]) => (folder ? (folder.name ?? 'Encrypted folder') : '…'));
  return [MY_FILES_LABEL, ...names.reverse()].join(' / ');
}

/** Whether a folder above `item` is itself in the trash (then its place cannot take it back). */
export function inTrashedFolder(item: ItemView, folders: ReadonlyMap<string, ItemView>, trashed: ReadonlySet<string>): boolean {
  for (const [id] of above(item, folders)) if (trashed.has(id)) return true;
  return false;
}

/** What the meter and the delete dialogs need: the trash's bytes and the retention, nothing opened. */
export interface TrashSummary {
  bytes: number;
  retentionDays: number;
}

/** GET /api/trash?limit=1: the summary alone (the list is opened only on /trash). */
export async function fetchTrashSummary(): Promise<TrashSummary> {
  const answer = await api.api.trash.get({ query: { limit: 1, offset: 0 } });
  if (answer.error) throw new HttpStatusError(answer.status, TRASH_FETCH_ERROR_TEXT);
  return { bytes: answer.data.bytes, retentionDays: answer.data.retentionDays };
}

/** GET /api/trash, every page, opened: what the trash holds and where each item was. */
export async function fetchTrash(): Promise<TrashListing> {
  const files: Array<ServerItem & { trashedAt: number; trashedBy: string | null }> = [];
  const ancestors = new Map<string, ServerItem>();
  const users: Record<string, string> = {};
  let bytes = 0;
  let retentionDays = 0;
  for (let offset: number | null = 0; offset !== null; ) {
    const answer = await api.api.trash.get({ query: { limit: PAGE, offset } });
    if (answer.error) throw new HttpStatusError(answer.status, TRASH_FETCH_ERROR_TEXT);
    const data: TrashPage = answer.data;
    files.push(...data.files);
    for (const folder of data.ancestors) ancestors.set(folder.id, folder);
    // Usernames come from the server: their bidi controls are written out before any is shown.
    for (const user of data.users) users[user.id] = shownUsername(user.username);
    bytes = data.bytes;
    retentionDays = data.retentionDays;
    offset = data.nextOffset;
  }
  const above = [...ancestors.values()];
  // Parents before children: the worker opens each item's key under its parent's.
  const views = await cryptoWorker.call('openItems', OWN_SCOPE, [...above, ...files]);
  const folders = new Map(views.slice(0, above.length).map((view) => [view.id, view]));
  const trashedIds = new Set(files.map((file) => file.id));
  const items = views.slice(above.length).map((view, i) => ({
    ...view,
    trashed: {
      at: files[i]!.trashedAt,
      by: files[i]!.trashedBy,
      from: pathAbove(view, folders),
      folderGone: inTrashedFolder(view, folders, trashedIds),
    },
  }));
  return { items, bytes, retentionDays, users };
}

/**
 * POST /api/trash/{id}/restore. Back where it was; with `toTop`, to the top level of My Files, its
 * key wrapped again under the root key (the server asks for that when the folder is gone).
 */
export async function restoreFromTrash(id: string, toTop: boolean): Promise<void> {
  const to = toTop ? await cryptoWorker.call('moveItem', OWN_SCOPE, id, null) : undefined;
  const { error, status } = await api.api.trash({ id }).restore.post(to ? { to } : {});
  if (error) throw new HttpStatusError(status, 'Error restoring the item.');
}

/** DELETE /api/trash/{id}: gone for good (its subtree too). */
export async function deleteForever(id: string): Promise<void> {
  const { error, status } = await api.api.trash({ id }).delete();
  if (error) throw new HttpStatusError(status, 'Error deleting the item.');
}

/** DELETE /api/trash: everything in it, for good. */
export async function emptyTrash(): Promise<number> {
  const { data, error, status } = await api.api.trash.delete();
  if (error) throw new HttpStatusError(status, 'Error emptying the trash.');
  return data.emptied;
}
