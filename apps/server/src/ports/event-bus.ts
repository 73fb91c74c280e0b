import type { EventKind } from '@sealbox/rules';

/**
 * A change notification. It names what changed and who may care, never what it is called or
 * any key: events cross process boundaries (PostgreSQL NOTIFY) and end up in browsers. Its kind
 * is one of the union clients handle (@sealbox/rules, docs/protocol.md "Live updates"), so the
 * server cannot publish a kind the web app has no handler for. One from another instance is
 * relayed as it came (a newer build's kind in a rolling upgrade): clients treat unknown kinds as
 * "the files may have changed".
 */
export interface SealboxEvent {
  kind: EventKind | typeof RESYNC_EVENT_KIND;
  itemId?: string;
  parentId?: string | null;
  /** items.changed (one event for a batch call's items): the items and their folders, null the top level. */
  itemIds?: string[];
  parentIds?: Array<string | null>;
  userIds: string[];
  linkIds?: string[];
  /** session.ended: which session (its id, the SHA-256 of the cookie token, never the token). */
  sessionId?: string;
  /** tree.changed: the owner's tree version after the change and before it (docs/protocol.md "Tree version"). */
  treeVersion?: number;
  treeSince?: number;
}

/**
 * Delivered by a bus to its local subscribers only, never published: notifications may have
 * been lost (the bus just reconnected), so whoever shows data should fetch it again.
 */
export const RESYNC_EVENT_KIND = 'events.resync' as const;

export type EventHandler = (event: SealboxEvent) => void;

export interface EventBus {
  /** Delivers to every subscriber of every instance, including this one, exactly once. */
  publish(event: SealboxEvent): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(handler: EventHandler): () => void;
  /** Resolves when the bus can deliver; rejects otherwise. */
  health(): Promise<void>;
  close(): Promise<void>;
}
