import type { FilesTransaction, ItemRecord } from '../../ports/files.ts';
import type { Principal } from './access.ts';
import { lockedItem } from './editable.ts';
import type { FilesDeps, FilesPorts } from './deps.ts';
import { otherWorkFirst, restAfter } from './event-loop.ts';
import { audienceOf, itemEvent, linkEvent, shareEvent } from './events.ts';
import { deleteBlobs } from './storage.ts';
import { DeepestFirst } from './tree-walk.ts';
import { uuid } from './validation.ts';

/**
 * Items removed per transaction (and reads per step of the walk). On SQLite a transaction holds
 * the only connection, so every other user's request waits for it: a batch this size takes a
 * few milliseconds, where one transaction over a tree of 20,000 items took a third of a second.
 */
export const PURGE_BATCH = 500;

/**
 * DELETE /api/file/{id} without a trash (trash.ts `deleteOrTrash`): the item and, for a folder,
 * everything under it (unfinished uploads included). A file goes in one transaction. A folder is first marked deleting, which hides it
 * and its whole subtree at once (access.ts: nothing can be read, added or moved under it), then
 * removed in batches deepest first, each its own transaction freeing its bytes (`purge`). Blobs
 * go after each commit; a crash leaves orphans and a marked folder for the sweep to finish.
 */
export async function deleteItem(deps: FilesDeps, principal: Principal, id: string): Promise<void> {
  uuid(id, 'id');
  const folder = await deps.store.transaction(async (tx) => {
    const { item, ancestors } = await lockedItem(tx, principal, id, 'delete');
    tx.publish(itemEvent('item.deleted', item, await audienceOf(tx, item, ancestors)));
    if (item.isDirectory) await tx.markDeleting(item.id, deps.clock());
    else await removeItems(deps, tx, [item]);
    return item.isDirectory ? item : null;
  });
  if (folder) await purge(deps, folder);
}

/**
 * Removes a folder marked deleting, batch by batch, the folder itself last. Two purges of one
 * tree (a sweep meeting a delete still running, or a folder deleted inside one being deleted)
 * only repeat work: an item the other already removed is skipped, and counted once.
 */
export async function purge(deps: FilesPorts, folder: ItemRecord, options: { background?: boolean } = {}): Promise<void> {
  const walk = new DeepestFirst(deps.store, folder);
  while (!walk.done) {
    const started = performance.now();
    const batch = await walk.next(PURGE_BATCH);
    if (batch.length > 0) {
      await deps.store.transaction(async (tx) => {
        // A marked folder goes whole, even when its owner's account ended meanwhile.
        await tx.lockOwner(folder.ownerId, { evenDeleted: true });
        await removeItems(deps, tx, batch);
      });
    }
    await (options.background ? restAfter(started) : otherWorkFirst());
  }
}

/**
 * Finishes every delete a crash or a shutdown cut short; returns how many it finished. One that
 * fails is logged and left for the next sweep: a broken tree must not keep the server from
 * starting, nor the other deletes from finishing.
 */
export async function finishDeletes(deps: FilesPorts): Promise<number> {
  let finished = 0;
  const failed = new Set<string>();
  for (;;) {
    // Oldest first, so the failed ones come first: ask past them.
    const pending = (await deps.store.deletesInProgress(100 + failed.size)).filter((folder) => !failed.has(folder.id));
    if (pending.length === 0) return finished;
    for (const folder of pending) {
      try {
        await purge(deps, folder);
        finished++;
      } catch (error) {
        failed.add(folder.id);
        deps.logger.error('folder delete could not finish', { itemId: folder.id, error: String(error) });
      }
    }
  }
}

/**
 * Deletes these items (children before parents) with their parts, versions and uploads, and frees their
 * owners' bytes; their blobs go after the commit. The caller holds the owner's lock.
 */
export async function removeItems(deps: FilesPorts, tx: FilesTransaction, items: readonly ItemRecord[]): Promise<void> {
  const ids = items.map((item) => item.id);
  // Their access entries and links go with them (the database cascades): recipients and link
  // visitors hear of it, and kept listings of whoever lost access are dropped.
  const byId = new Map(items.map((item) => [item.id, item]));
  const entries = await tx.accessesOn(ids);
  const recipients = entries.map((entry) => entry.userId);
  // Not announced to a recipient who blocks the owner (blocks.ts).
  const blockers = new Map<string, ReadonlySet<string>>();
  for (const ownerId of new Set(items.map((item) => item.ownerId))) {
    if (recipients.length > 0) blockers.set(ownerId, await tx.blockersAmong(ownerId, recipients));
  }
  for (const entry of entries) {
    const item = byId.get(entry.itemId)!;
    tx.publish(shareEvent('share.deleted', item, entry, blockers.get(item.ownerId)));
  }
  for (const link of await tx.linksOn(ids)) tx.publish(linkEvent('link.deleted', byId.get(link.itemId)!, link));
  // Their earlier versions go too: their blobs and bytes are freed like the newest content's.
  const parts = [...(await tx.deleteParts(ids)), ...(await tx.deleteVersionsOf(ids))];
  const uploads = await tx.deleteUploads(ids);
  await tx.deleteItems(ids);
  const ownerOf = new Map(items.map((item) => [item.id, item.ownerId]));
  await deps.quota.freeDeleted(tx, (itemId) => ownerOf.get(itemId)!, parts, uploads);
  tx.afterCommit(() =>
    deleteBlobs(
      deps,
      parts.map((part) => part.blobKey),
    ),
  );
}
