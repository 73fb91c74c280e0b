import type { SealboxEvent } from '../../ports/event-bus.ts';
import type { ItemRecord } from '../../ports/files.ts';
import { avatarBlobKey } from '../accounts/avatar.ts';
import { purge, PURGE_BATCH, removeItems } from './deletion.ts';
import type { FilesPorts } from './deps.ts';
import { restAfter } from './event-loop.ts';
import { linkEvent, shareEvent } from './events.ts';
import { deleteBlobs } from './storage.ts';

/**
 * Deleting an account (docs/protocol.md "Deleting an account") in two steps. `endAccount` is one
 * transaction that makes the account unreachable at once: marked deleted, its secrets blanked,
 * its sessions, shares (given and held), links, pins, recovery copy and blocks gone, each told
 * live. Nothing of it is visible after that commit, so `purgeAccount` can then remove its items
 * in bounded batches at its own pace; a crash leaves a marked account that the sweep finishes.
 */

/** How long a deleted account's username stays reserved unless DELETED_NAME_GRACE_DAYS says otherwise. */
export const DEFAULT_DELETED_NAME_GRACE_DAYS = 30;

/**
 * Ends the account: false when it was not a live account (deleted meanwhile). The caller's own
 * session is told first: its sockets close before the other sessions' ends could reach them.
 */
export async function endAccount(
  deps: FilesPorts,
  userId: string,
  sessionEnded: (sessionId: string) => SealboxEvent,
  callerSessionId?: string,
): Promise<boolean> {
  return deps.store.transaction(async (tx) => {
    await tx.lockOwner(userId, { evenDeleted: true });
    const given = await tx.accessesGivenBy(userId);
    const held = await tx.accessesHeldBy(userId);
    const links = await tx.linksOfOwner(userId);
    // Read before endAccount drops the blocks: a recipient who blocked the account never saw its shares.
    const blockers = await tx.blockersAmong(
      userId,
      given.map((entry) => entry.userId),
    );
    const ended = await tx.endAccount(userId, deps.clock());
    if (!ended) return false;
    const sessions = [...ended.sessionIds].sort((a, b) => Number(b === callerSessionId) - Number(a === callerSessionId));
    for (const id of sessions) tx.publish(sessionEnded(id));
    await tx.deleteAccesses([...given, ...held]);
    await tx.deleteLinks(links.map((link) => link.id));
    for (const entry of given) tx.publish(shareEvent('share.deleted', { id: entry.itemId, ownerId: userId }, entry, blockers));
    const heldItems = new Map((await tx.items(held.map((entry) => entry.itemId))).map((item) => [item.id, item]));
    for (const entry of held) {
      const item = heldItems.get(entry.itemId);
      if (item) tx.publish(shareEvent('share.deleted', item, entry));
    }
    for (const link of links) tx.publish(linkEvent('link.deleted', { id: link.itemId, ownerId: userId }, link));
    return true;
  });
}

/**
 * Removes everything an ended account still holds: its avatar, its unfinished uploads in others'
 * trees (through links too), then
 * its own items, top level first, a batch per transaction (folders through the folder delete's
 * `purge`), freeing their blobs. Nobody waits for it, so it gives way to other users' requests
 * between batches (`restAfter`). Safe to run twice at once (two instances' sweeps): each batch is
 * read again under the owner's lock.
 */
export function purgeAccount(deps: FilesPorts, userId: string): Promise<void> {
  // One purge per account in this process: the route's, a sweep's and the next sweep's meet here.
  const running = purging.get(userId);
  if (running) return running;
  const purge = purgeNow(deps, userId).finally(() => purging.delete(userId));
  purging.set(userId, purge);
  return purge;
}

const purging = new Map<string, Promise<void>>();

async function purgeNow(deps: FilesPorts, userId: string): Promise<void> {
  // The avatar here, not after endAccount's commit: a crash between the two must not keep it.
  await deleteBlobs(deps, [avatarBlobKey(userId)]);
  const uploads = await deps.store.uploadsInOthersTrees(userId);
  for (const ownerId of new Set(uploads.map((upload) => upload.ownerId))) {
    await deps.store.transaction(async (tx) => {
      await tx.lockOwner(ownerId, { evenDeleted: true });
      const ids = uploads.filter((upload) => upload.ownerId === ownerId).map((upload) => upload.itemId);
      // Read again under the lock: one that finished or went meanwhile is left alone.
      const still = (await tx.items(ids)).filter((item) => item.state === 'uploading');
      if (still.length > 0) await removeItems(deps, tx, still);
    });
  }
  for (;;) {
    const started = performance.now();
    const folders: ItemRecord[] = [];
    const found = await deps.store.transaction(async (tx) => {
      await tx.lockOwner(userId, { evenDeleted: true });
      const top = await tx.topLevel(userId, { page: { limit: PURGE_BATCH, offset: 0 } });
      for (const folder of top.filter((item) => item.isDirectory)) {
        if (folder.state !== 'deleting') await tx.markDeleting(folder.id, deps.clock());
        folders.push(folder);
      }
      const files = top.filter((item) => !item.isDirectory);
      if (files.length > 0) await removeItems(deps, tx, files);
      return top.length;
    });
    await restAfter(started);
    for (const folder of folders) await purge(deps, folder, { background: true });
    if (found === 0) return;
  }
}

/**
 * The sweep's part: finishes the purge of every ended account a crash or a shutdown cut short,
 * and frees the usernames of accounts deleted more than `nameGraceMs` ago. One that fails is
 * logged and left for the next sweep.
 */
export async function finishAccountDeletes(
  deps: FilesPorts,
  nameGraceMs: number,
): Promise<{ purged: number; freedNames: number }> {
  let purged = 0;
  // Each account once per sweep, done or failed: one that something keeps coming back waits for the next.
  const seen = new Set<string>();
  for (;;) {
    const pending = (await deps.store.deletedAccountsToPurge(100 + seen.size)).filter((id) => !seen.has(id));
    if (pending.length === 0) break;
    for (const userId of pending) {
      seen.add(userId);
      try {
        await purgeAccount(deps, userId);
        purged++;
      } catch (error) {
        deps.logger.error('account delete could not finish', { userId, error: String(error) });
      }
    }
  }
  let freedNames = 0;
  for (;;) {
    const freed = await deps.store.freeDeletedNames(deps.clock() - nameGraceMs, 100);
    freedNames += freed;
    if (freed < 100) return { purged, freedNames };
  }
}
