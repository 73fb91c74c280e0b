import { TREE_EVENT_MAX_PARENTS } from '@sealbox/rules';
import type { SealboxEvent } from '../../ports/event-bus.ts';

/**
 * `tree.changed` (docs/protocol.md "Tree version"): the folders it names, and a batch call's
 * folded into one per owner, as every other event of the call is (event-batch.ts).
 */

/** `parentIds` into the event's (undefined: too many to name); past TREE_EVENT_MAX_PARENTS none at all, so the client refetches the whole tree. */
export function addTreeParents(event: SealboxEvent, parentIds: ReadonlyArray<string | null> | undefined): void {
  const list = event.parentIds;
  if (list === undefined) return;
  if (parentIds === undefined) {
    delete event.parentIds;
    return;
  }
  for (const id of parentIds) if (!list.includes(id)) list.push(id);
  if (list.length > TREE_EVENT_MAX_PARENTS) delete event.parentIds;
}

/**
 * Folds `next` into `kept` when it follows on (its treeSince is kept's treeVersion), so one event
 * says what both did; false, and `kept` untouched, when there is a gap between them: a range
 * across a gap would let the client bridge a change it never refetched.
 */
export function chainTreeEvent(kept: SealboxEvent, next: SealboxEvent): boolean {
  if (next.treeSince !== kept.treeVersion) return false;
  kept.treeVersion = next.treeVersion;
  addTreeParents(kept, next.parentIds);
  return true;
}

/** A copy of a tree.changed that folding may change, the original left as it was. */
export function treeEventCopy(event: SealboxEvent): SealboxEvent {
  return { ...event, userIds: [...event.userIds], ...(event.parentIds ? { parentIds: [...event.parentIds] } : {}) };
}

/**
 * One event per owner from a call's tree.changed events: from the lowest version before to the
 * highest after. Another call's change between them makes a range the client cannot bridge
 * (it then rebuilds), never one it bridges wrongly.
 */
export function foldTreeEvents(events: readonly SealboxEvent[]): SealboxEvent[] {
  const byOwner = new Map<string, SealboxEvent>();
  for (const event of events) {
    const owner = event.userIds[0] ?? '';
    const kept = byOwner.get(owner);
    if (!kept) {
      byOwner.set(owner, treeEventCopy(event));
      continue;
    }
    kept.treeVersion = Math.max(kept.treeVersion ?? 0, event.treeVersion ?? 0);
    kept.treeSince = Math.min(kept.treeSince ?? 0, event.treeSince ?? 0);
    addTreeParents(kept, event.parentIds);
  }
  return [...byOwner.values()];
}
