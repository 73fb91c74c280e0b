/**
 * A change notification. It names what changed and who may care, never what it is called or
 * any key: events cross process boundaries (PostgreSQL NOTIFY) and end up in browsers.
 */
export interface SealboxEvent {
  kind: string;
  itemId?: string;
  parentId?: string | null;
  userIds: string[];
  linkIds?: string[];
  /** session.ended: which session (its id, the SHA-256 of the cookie token, never the token). */
  sessionId?: string;
}

/**
 * Delivered by a bus to its local subscribers only, never published: notifications may have
 * been lost (the bus just reconnected), so whoever shows data should fetch it again.
 */
export const RESYNC_EVENT_KIND = 'events.resync';

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
