import type { FilesTransaction, ItemRecord, UserSummary } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, notFound, type Principal } from './access.ts';
import { deleteItem, purge, removeItems } from './deletion.ts';
import type { FilesDeps, FilesPorts } from './deps.ts';
import { lockedItem } from './editable.ts';
import { audienceOf, itemEvent, trashChanged } from './events.ts';
import { nonce, uuid, wrappedKey } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

/**
 * The trash (docs/protocol.md "Trash"). With TRASH_RETENTION_DAYS above 0, a delete marks the item
 * it names as trashed (its subtree goes along): hidden at once from every listing, share and link,
 * as a folder being deleted is (access.ts), its bytes still counted for its owner. The owner lists
 * the trash, restores an item (to where it was: its parent and wrapped key never changed; or to
 * the top level, re-wrapped under the root key, when that folder is gone or itself in the trash)
 * or deletes it for good; the sweep deletes what has been there longer than the retention.
 */

/** Days a deleted item stays in its owner's trash unless TRASH_RETENTION_DAYS says otherwise (docs/operations.md "Trash"). */
export const DEFAULT_TRASH_RETENTION_DAYS = 30;

const DAY_MS = 86_400_000;

/** The trash list's page. */
export const TRASH_PAGE_MAX = 1000;

export interface TrashedView extends ItemView {
  trashedAt: number;
  /** Who deleted it: the owner, or an editor of a shared folder; null for an anonymous link holder. */
  trashedBy: string | null;
}

export interface TrashList {
  files: TrashedView[];
  /** The bytes the whole trash holds, counted on the owner's quota (the storage meter shows them). */
  bytes: number;
  /** The folders above the trashed items (to name where each was), each once. */
  ancestors: ItemView[];
  /** Who deleted them (and the owner): names by id, as a listing gives them. */
  users: UserSummary[];
  /** How many days an item stays before the sweep deletes it for good (0: a delete is for good). */
  retentionDays: number;
  nextOffset: number | null;
}

/** DELETE /api/file/{id}: to the owner's trash while there is one, else for good. */
export function deleteOrTrash(deps: FilesDeps, principal: Principal, id: string): Promise<void> {
  return (deps.trashRetentionMs ?? 0) > 0 ? trashItem(deps, principal, id) : deleteItem(deps, principal, id);
}

/** The item and its subtree leave every view, for its owner's trash. */
export async function trashItem(deps: FilesDeps, principal: Principal, id: string): Promise<void> {
  uuid(id, 'id');
  await deps.store.transaction((tx) => trashIn(tx, deps, principal, id));
}

/** The move to the trash inside `tx`, which a batch shares between many items: checks, then the one write. */
export async function trashIn(
  tx: FilesTransaction,
  deps: Pick<FilesDeps, 'clock'>,
  principal: Principal,
  id: string,
  held?: Set<string>,
): Promise<void> {
  const { item, ancestors } = await lockedItem(tx, principal, id, 'delete', held);
  tx.publish(itemEvent('item.deleted', item, await audienceOf(tx, item, ancestors)));
  tx.publish(trashChanged(item.ownerId));
  await tx.markTrashed(item.id, deps.clock(), principal.userId);
}

export async function listTrash(deps: FilesPorts, ownerId: string, page: { limit: number; offset: number }): Promise<TrashList> {
  const limit = Math.min(Math.max(1, page.limit), TRASH_PAGE_MAX);
  const items = await deps.store.trashOf(ownerId, { limit: limit + 1, offset: page.offset });
  const shown = items.slice(0, limit);
  const above = await deps.store.ancestorsOf(shown);
  const people = new Set([ownerId, ...shown.flatMap((item) => (item.trashedBy ? [item.trashedBy] : []))]);
  return {
    files: shown.map((item) => ({
      ...toItemView(item, 'owner'),
      trashedAt: item.trashedAt ?? 0,
      trashedBy: item.trashedBy ?? null,
    })),
    ancestors: above.map((folder) => toItemView(folder, 'owner')),
    users: await deps.store.userSummaries([...people]),
    retentionDays: Math.round((deps.trashRetentionMs ?? 0) / DAY_MS),
    bytes: await deps.store.trashBytes(ownerId),
    nextOffset: items.length > limit ? page.offset + limit : null,
  };
}

/** Where a restore puts an item whose folder is gone: the top level, K wrapped again under the root key. */
export interface RestoreTarget {
  encryptedKey: string;
  keyNonce: string;
}

export const ORIGINAL_FOLDER_GONE = 'The folder this was in is gone or in the trash: restore it to My Files.';

/** A trashed item of the caller's, read under their lock; NOT_FOUND for anything else. */
async function ownTrashed(tx: FilesTransaction, ownerId: string, id: string): Promise<ItemRecord> {
  uuid(id, 'id');
  await tx.lockOwner(ownerId);
  const item = await tx.item(id);
  if (!item || item.ownerId !== ownerId || item.state !== 'trashed') throw notFound();
  return item;
}

/**
 * POST /api/trash/{id}/restore: back where it was when that folder is still there and not in the
 * trash (its shares and links work again); otherwise only with `to` (the top level, re-wrapped):
 * CONFLICT ORIGINAL_FOLDER_GONE without it. Names are the browser's to compare (it asks about a
 * duplicate before it calls).
 */
export async function restoreItem(deps: FilesDeps, ownerId: string, id: string, to?: RestoreTarget): Promise<ItemView> {
  const target = to && { encryptedKey: wrappedKey(to.encryptedKey, 'encryptedKey'), keyNonce: nonce(to.keyNonce, 'keyNonce') };
  return deps.store.transaction(async (tx) => {
    const item = await ownTrashed(tx, ownerId, id);
    const parent = item.parentId === null ? undefined : await tx.item(item.parentId);
    const backInPlace =
      item.parentId === null ||
      (parent !== undefined && (await accessPath(tx, { kind: 'user', userId: ownerId }, parent)) !== null);
    await tx.clearTrashed(item.id);
    let restored: ItemRecord = { ...item, state: 'ready', trashedAt: null, trashedBy: null };
    if (!backInPlace) {
      if (!target) throw new DomainError('CONFLICT', ORIGINAL_FOLDER_GONE);
      const changes = { parentId: null, encryptedKey: target.encryptedKey, keyNonce: target.keyNonce, modifiedAt: deps.clock() };
      await tx.updateItem(item.id, changes);
      restored = { ...restored, ...changes };
    }
    tx.publish(itemEvent('item.created', restored, await audienceOf(tx, restored)));
    tx.publish(trashChanged(ownerId));
    return toItemView(restored, 'owner');
  });
}

/** DELETE /api/trash/{id}: the trashed item and its subtree go for good, their bytes freed. */
export async function deleteForever(deps: FilesPorts, ownerId: string, id: string): Promise<void> {
  const folder = await deps.store.transaction(async (tx) => {
    const item = await ownTrashed(tx, ownerId, id);
    tx.publish(trashChanged(ownerId));
    if (!item.isDirectory) {
      await removeItems(deps, tx, [item]);
      return null;
    }
    await tx.markDeleting(item.id, deps.clock());
    return item;
  });
  if (folder) await purge(deps, folder);
}

/** DELETE /api/trash: everything in the caller's trash, for good; how many items were in it. */
export async function emptyTrash(deps: FilesPorts, ownerId: string): Promise<number> {
  let emptied = 0;
  for (;;) {
    const batch = await deps.store.trashOf(ownerId, { limit: 100, offset: 0 });
    if (batch.length === 0) return emptied;
    for (const item of batch) {
      await deleteForever(deps, ownerId, item.id).catch((error: unknown) => {
        // Restored or deleted meanwhile (another tab): nothing left to do for it.
        if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
      });
      emptied++;
    }
  }
}

/** The sweep's part: items in the trash longer than `retentionMs` go for good; how many. */
export async function expireTrash(deps: FilesPorts, retentionMs: number): Promise<number> {
  if (retentionMs <= 0) return 0;
  let expired = 0;
  for (;;) {
    const batch = await deps.store.trashedBefore(deps.clock() - retentionMs, 100);
    if (batch.length === 0) return expired;
    for (const item of batch) {
      await deleteForever(deps, item.ownerId, item.id).catch((error: unknown) => {
        if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
      });
      expired++;
    }
  }
}
