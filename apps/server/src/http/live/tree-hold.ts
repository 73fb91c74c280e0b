import { chainTreeEvent, treeEventCopy } from '../../domain/files/index.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';

/**
 * How long a socket's `tree.changed` waits behind the events of the change it counts. The item's
 * own event is what a listing shows; `tree.changed` only keeps the search index current
 * (docs/protocol.md "Tree version and search index"). Sent at once, it went first (the version is
 * bumped by a transaction's first write), so every tab's item event queued behind a whole
 * fan-out of it: at 10,000 sockets that doubled the time to the last one (docs/benchmarks.md).
 * Held this long, the item's fan-out is done before it, and a burst of changes (an upload of a
 * folder) folds into one frame. A search typed within it still finds the listings' names: the
 * index takes every listing the tab refetches for the item's event.
 */
export const TREE_HOLD_MS = 250;

/**
 * Per owner, the `tree.changed` waiting to go to this instance's sockets. One that follows on
 * from the held one (`treeSince` its `treeVersion`) is folded into it; one after a gap sends the
 * held one first, so a client never gets a range it could bridge without refetching a change.
 * The first one's timer is not pushed back by later ones, so none waits longer than `holdMs`.
 */
export function createTreeHold(send: (event: SealboxEvent) => void, holdMs = TREE_HOLD_MS) {
  const held = new Map<string, { event: SealboxEvent; timer: ReturnType<typeof setTimeout> }>();

  function flush(owner: string): void {
    const entry = held.get(owner);
    if (!entry) return;
    held.delete(owner);
    clearTimeout(entry.timer);
    send(entry.event);
  }

  return {
    /** Holds a `tree.changed` of one owner (the only one it is ever addressed to). */
    hold(event: SealboxEvent): void {
      const owner = event.userIds[0] ?? '';
      const entry = held.get(owner);
      if (entry && chainTreeEvent(entry.event, event)) return;
      flush(owner);
      const timer = setTimeout(() => flush(owner), holdMs);
      timer.unref?.();
      held.set(owner, { event: treeEventCopy(event), timer });
    },
    /** Everything held goes now (before a resync, so the order of what was said stays). */
    flushAll(): void {
      for (const owner of [...held.keys()]) flush(owner);
    },
    /** Drops what is held (the hub is closing its sockets anyway). */
    clear(): void {
      for (const entry of held.values()) clearTimeout(entry.timer);
      held.clear();
    },
  };
}
