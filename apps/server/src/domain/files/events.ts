import type { SealboxEvent } from '../../ports/event-bus.ts';
import type { ItemRecord } from '../../ports/files.ts';

/**
 * Events name the item, its parent and the users who can see it, nothing more (ports/event-bus).
 * Today that is the owner and the uploader; sharing adds the users with access entries on the
 * item or an ancestor, and the links.
 */
export function audience(item: Pick<ItemRecord, 'ownerId' | 'uploaderId'>): string[] {
  return [...new Set([item.ownerId, item.uploaderId])];
}

/** Events about one item; clients and the listing cache follow them by that item. */
export const ITEM_EVENT_KINDS = ['item.created', 'upload.completed', 'item.renamed', 'item.moved', 'item.deleted'] as const;
export type ItemEventKind = (typeof ITEM_EVENT_KINDS)[number];

export function itemEvent(kind: ItemEventKind, item: ItemRecord, parentId: string | null = item.parentId): SealboxEvent {
  return { kind, itemId: item.id, parentId, userIds: audience(item) };
}

export function quotaChanged(userId: string): SealboxEvent {
  return { kind: 'quota.changed', userIds: [userId] };
}
