import type { SealboxEvent } from '../../ports/event-bus.ts';
import type { FilesStore } from '../../ports/files.ts';
import type { FilesDeps } from './deps.ts';
import { foldTreeEvents } from './tree-events.ts';

/**
 * One live event batch per batch call (docs/protocol.md "Batch changes"): a move of 5,000 items
 * would otherwise publish 10,000 events, each a frame to every watching tab and a refresh there.
 * The call's transactions gather what they publish; once the call is done each user or link that
 * would have heard of its items gets one `items.changed` naming them and their folders.
 */

/** What moving and deleting an item publish: the kinds folded into items.changed. */
const FOLDED: ReadonlySet<string> = new Set(['item.moved', 'item.deleted']);

interface Told {
  itemIds: Set<string>;
  parentIds: Set<string | null>;
}

/** The top level (null) first, then the folders in order: the same set always reads the same. */
const byId = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/**
 * The gathered events as few: per recipient (a user or a link) the items and folders it was told
 * of, one event for the recipients told of the same; the other kinds (trash, quota, shares and
 * links gone with their items) once each, the owners' tree.changed one per owner. A recipient learns exactly the ids it would have learned
 * from the events one by one: each event's audience, decided when it was published, still decides.
 */
export function summarise(events: readonly SealboxEvent[]): SealboxEvent[] {
  const heard = new Map<string, Told>();
  const others = new Map<string, SealboxEvent>();
  const trees: SealboxEvent[] = [];
  for (const event of events) {
    if (event.kind === 'tree.changed') {
      trees.push(event);
      continue;
    }
    if (!FOLDED.has(event.kind)) {
      others.set(JSON.stringify(event), event);
      continue;
    }
    const recipients = [...event.userIds.map((id) => `user:${id}`), ...(event.linkIds ?? []).map((id) => `link:${id}`)];
    for (const recipient of recipients) {
      const told: Told = heard.get(recipient) ?? { itemIds: new Set(), parentIds: new Set() };
      heard.set(recipient, told);
      if (event.itemId !== undefined) told.itemIds.add(event.itemId);
      if (event.parentId !== undefined) told.parentIds.add(event.parentId);
    }
  }
  const groups = new Map<string, { event: SealboxEvent; linkIds: string[] }>();
  for (const [recipient, told] of heard) {
    const itemIds = [...told.itemIds].sort();
    const parentIds = [...told.parentIds].sort(byId);
    const key = JSON.stringify([itemIds, parentIds]);
    const group = groups.get(key) ?? { event: { kind: 'items.changed', itemIds, parentIds, userIds: [] }, linkIds: [] };
    groups.set(key, group);
    const [kind, id] = [recipient.slice(0, 4), recipient.slice(5)];
    (kind === 'user' ? group.event.userIds : group.linkIds).push(id);
  }
  const folded = [...groups.values()].map(({ event, linkIds }) => (linkIds.length > 0 ? { ...event, linkIds } : event));
  return [...folded, ...foldTreeEvents(trees), ...others.values()];
}

/**
 * `deps` whose transactions gather their events instead of publishing them, and `flush`, which
 * publishes the summary once. Events are gathered when their transaction commits, so a rolled
 * back one's are dropped as publish drops them.
 */
export function gatheringEvents(deps: FilesDeps): { deps: FilesDeps; flush(): Promise<void> } {
  const gathered: SealboxEvent[] = [];
  const store: FilesStore = Object.create(deps.store);
  store.transaction = (fn) =>
    deps.store.transaction((tx) => {
      // The same object with publish replaced, not a copy: the quota store finds its database
      // transaction by this object.
      tx.publish = (event) => tx.afterCommit(() => void gathered.push(event));
      return fn(tx);
    });
  return {
    deps: { ...deps, store },
    async flush() {
      const events = summarise(gathered.splice(0));
      if (events.length === 0) return;
      // Events leave only through a transaction's commit: this one commits nothing else.
      await deps.store.transaction(async (tx) => {
        for (const event of events) tx.publish(event);
      });
    },
  };
}

/** Runs a batch call on gathering deps, and publishes its summary even when the call fails midway. */
export async function inOneEventBatch<T>(deps: FilesDeps, call: (deps: FilesDeps) => Promise<T>): Promise<T> {
  const batch = gatheringEvents(deps);
  try {
    return await call(batch.deps);
  } finally {
    // What committed before a failure was changed and is told; a failed publish is a lost
    // notification (tabs catch up with their next refresh), not the call's failure.
    await batch.flush().catch((error: unknown) => deps.logger.error('batch events not published', { error: String(error) }));
  }
}
