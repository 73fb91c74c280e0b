/**
 * The live events of /api/ws (docs/protocol.md "Live updates"): what the server publishes and
 * every client follows. The kinds are one union, `EventKind`: the server's event bus carries only
 * these (apps/server/src/ports/event-bus.ts), and the web app keys its handlers by it
 * (apps/web/src/features/live/invalidations.ts), so a kind the server gains fails typecheck until
 * the web app says what it makes stale.
 */

/** Events about one item; `itemId` is the item, `parentId` the folder whose listing changed. */
const ITEM_TREE_KINDS = ['item.created', 'upload.completed', 'item.renamed', 'item.moved', 'item.deleted'] as const;
/** And `item.versions`: a file's content or its versions changed (docs/protocol.md "Versions"). */
export const ITEM_EVENT_KINDS = [...ITEM_TREE_KINDS, 'item.versions'] as const;
export type ItemEventKind = (typeof ITEM_EVENT_KINDS)[number];

/**
 * Sharing with a user: created, switched between viewer and editor, removed (revoked by the
 * owner, dropped by the recipient, or gone with its item). `itemId` is the shared item.
 */
export const SHARE_EVENT_KINDS = ['share.created', 'share.changed', 'share.deleted'] as const;
export type ShareEventKind = (typeof SHARE_EVENT_KINDS)[number];

/**
 * Share links: created, changed (permission switched, password removed, expiry changed or
 * renewed), password set or changed (every access proof void), expired (ended by the server's
 * sweep; still listed to its owner), deleted. `itemId` is the linked item.
 */
export const LINK_EVENT_KINDS = ['link.created', 'link.changed', 'link.password', 'link.expired', 'link.deleted'] as const;
export type LinkEventKind = (typeof LINK_EVENT_KINDS)[number];

/**
 * About the account alone: space used or reserved, the profile, one session ended (`sessionId`),
 * the accounts the user blocks, what is in the user's trash. They name no item.
 */
export const ACCOUNT_EVENT_KINDS = [
  'quota.changed',
  'profile.changed',
  'session.ended',
  'blocks.changed',
  'trash.changed',
] as const;
export type AccountEventKind = (typeof ACCOUNT_EVENT_KINDS)[number];

/**
 * Many items changed in one call (docs/protocol.md "Batch changes"): one event per socket instead
 * of one per item. `parentIds` are the folders whose listings changed (null: the top level),
 * `itemIds` the items themselves, only those the socket may see.
 */
export const BATCH_EVENT_KINDS = ['items.changed'] as const;
export type BatchEventKind = (typeof BATCH_EVENT_KINDS)[number];

/**
 * The owner's tree changed (docs/protocol.md "Tree version"): one per transaction that changed
 * items the user owns, to the owner alone, with `treeVersion` (the counter after it), `treeSince`
 * (the one before: treeVersion - 1, or lower for a batch call's, folded into one event) and `parentIds`, the folders whose listings changed (left out when
 * there were more than TREE_EVENT_MAX_PARENTS: refetch everything).
 */
export const TREE_EVENT_KINDS = ['tree.changed'] as const;
export type TreeEventKind = (typeof TREE_EVENT_KINDS)[number];
export const TREE_EVENT_MAX_PARENTS = 64;

export const EVENT_KINDS = [
  ...ITEM_EVENT_KINDS,
  ...BATCH_EVENT_KINDS,
  ...TREE_EVENT_KINDS,
  ...SHARE_EVENT_KINDS,
  ...LINK_EVENT_KINDS,
  ...ACCOUNT_EVENT_KINDS,
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

const KNOWN: ReadonlySet<string> = new Set(EVENT_KINDS);

/** Whether this build knows `kind` (a newer server may send kinds it does not). */
export function isEventKind(kind: string): kind is EventKind {
  return KNOWN.has(kind);
}

/**
 * An event as a socket receives it: ids and its kind, never its audience (who else can see the
 * item stays on the server). `K` is what the reader may assume of the kind: the server sends
 * `EventKind`s; a client reads `string`, since a newer server may send a kind it does not know.
 */
export interface LiveEvent<K extends string = EventKind> {
  kind: K;
  itemId?: string;
  parentId?: string | null;
  /** items.changed: the items and the folders whose listings changed (null: the top level). */
  itemIds?: string[];
  parentIds?: Array<string | null>;
  /** session.ended: the ended session's id as `GET /api/sessions` lists it. */
  sessionId?: string;
  /** tree.changed: the owner's tree version after the change, and the one it changed from. */
  treeVersion?: number;
  treeSince?: number;
}
