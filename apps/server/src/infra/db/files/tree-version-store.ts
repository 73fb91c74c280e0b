import type { Kysely } from 'kysely';
import { addTreeParents } from '../../../domain/files/tree-events.ts';
import type { SealboxEvent } from '../../../ports/event-bus.ts';
import type { Database } from '../../../ports/db.ts';
import type { TreeVersionReader } from '../../../ports/files/tree-version.ts';

/**
 * users.tree_version (migration 019): bumped once per transaction per owner whose items it
 * changes, by the items writer (items-store.ts), whatever domain call made the change; so no
 * change can forget it. The owner alone hears `tree.changed` with the new version and the
 * folders whose listings changed.
 */
export interface TreeChanges {
  /** Items of `ownerId` under these folders (null: the top level) changed in this transaction. */
  changed(ownerId: string, parentIds: ReadonlyArray<string | null>): Promise<void>;
}

export function treeVersionReader(k: Kysely<Database>): TreeVersionReader {
  return {
    async treeVersion(ownerId) {
      const row = await k.selectFrom('users').select('tree_version').where('id', '=', ownerId).executeTakeFirst();
      return Number(row?.tree_version ?? 0);
    },
  };
}

/**
 * One transaction's bumps. The first change of an owner bumps the counter (its row lock orders
 * concurrent transactions of one owner, so versions commit in order) and publishes the event;
 * later changes in the same transaction only add their folders to that event, which is sent at
 * commit.
 */
export function treeChanges(k: Kysely<Database>, publish: (event: SealboxEvent) => void): TreeChanges {
  const events = new Map<string, SealboxEvent>();
  const bumping = new Map<string, Promise<SealboxEvent>>();
  const bump = async (ownerId: string): Promise<SealboxEvent> => {
    const row = await k
      .updateTable('users')
      .set((eb) => ({ tree_version: eb('tree_version', '+', 1) }))
      .where('id', '=', ownerId)
      .returning('tree_version')
      .executeTakeFirst();
    const treeVersion = Number(row?.tree_version ?? 0);
    const event: SealboxEvent = {
      kind: 'tree.changed',
      userIds: [ownerId],
      treeVersion,
      treeSince: treeVersion - 1,
      parentIds: [],
    };
    events.set(ownerId, event);
    // Queued until commit: the parents added below go with it.
    publish(event);
    return event;
  };
  return {
    async changed(ownerId, parentIds) {
      let pending = bumping.get(ownerId);
      if (!pending) {
        pending = bump(ownerId);
        bumping.set(ownerId, pending);
      }
      const event = await pending;
      addTreeParents(event, parentIds);
    },
  };
}
