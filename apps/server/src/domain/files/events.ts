import type { ItemEventKind, LinkEventKind, ShareEventKind } from '@sealbox/rules';
import type { SealboxEvent } from '../../ports/event-bus.ts';
import type { AccessRecord, FilesReader, ItemRecord, LinkRecord } from '../../ports/files.ts';
import { peopleOf } from './view.ts';

/**
 * Events name the item, its parent and who can see it, nothing more (ports/event-bus): the
 * owner, the uploader, the users with an access entry on the item or an ancestor, and the links
 * on the item or an ancestor (their visitors' sockets). Users who block the item's owner
 * (blocks.ts) hear nothing of it.
 */
export interface Audience {
  userIds: string[];
  linkIds: string[];
}

/** Who can see `item`; `ancestors` (parent first) when the caller has read them already. */
export async function audienceOf(reader: FilesReader, item: ItemRecord, ancestors?: readonly ItemRecord[]): Promise<Audience> {
  const above = ancestors ?? (item.parentId === null ? [] : await reader.ancestors(item));
  const path = [item.id, ...above.map((ancestor) => ancestor.id)];
  const accesses = await reader.accessesOn(path);
  const links = await reader.linksOn(path);
  return {
    userIds: await unblocked(reader, item.ownerId, [...new Set([...peopleOf(item), ...accesses.map((entry) => entry.userId)])]),
    linkIds: links.map((link) => link.id),
  };
}

/** `userIds` less those who block `ownerId`: no event about the owner's items reaches them. */
export async function unblocked(reader: FilesReader, ownerId: string, userIds: string[]): Promise<string[]> {
  const others = userIds.filter((id) => id !== ownerId);
  const blockers = others.length === 0 ? new Set<string>() : await reader.blockersAmong(ownerId, others);
  return blockers.size === 0 ? userIds : userIds.filter((id) => !blockers.has(id));
}

export function mergeAudiences(a: Audience, b: Audience): Audience {
  return { userIds: [...new Set([...a.userIds, ...b.userIds])], linkIds: [...new Set([...a.linkIds, ...b.linkIds])] };
}

// The kinds are the union both sides share (@sealbox/rules, docs/protocol.md "Live updates");
// the listing cache and the live hub read them from here.
export { ITEM_EVENT_KINDS, LINK_EVENT_KINDS, SHARE_EVENT_KINDS } from '@sealbox/rules';

export function itemEvent(
  kind: ItemEventKind,
  item: ItemRecord,
  audience: Audience,
  parentId: string | null = item.parentId,
): SealboxEvent {
  return withLinks({ kind, itemId: item.id, parentId, userIds: audience.userIds }, audience.linkIds);
}

/**
 * A share made, switched or removed. Audience: the owner and the recipient, unless the recipient
 * blocks the owner (`blockers`, from FilesReader.blockersAmong).
 */
export function shareEvent(
  kind: ShareEventKind,
  item: Pick<ItemRecord, 'id' | 'ownerId'>,
  access: Pick<AccessRecord, 'userId'>,
  blockers: ReadonlySet<string> = new Set(),
): SealboxEvent {
  const recipient = blockers.has(access.userId) ? [] : [access.userId];
  return { kind, itemId: item.id, userIds: [...new Set([item.ownerId, ...recipient])] };
}

/** A link made, changed or deleted. Audience: the owner, and for all but created the link's own sockets. */
export function linkEvent(
  kind: LinkEventKind,
  item: Pick<ItemRecord, 'id' | 'ownerId'>,
  link: Pick<LinkRecord, 'id'>,
): SealboxEvent {
  return withLinks({ kind, itemId: item.id, userIds: [item.ownerId] }, kind === 'link.created' ? [] : [link.id]);
}

function withLinks(event: SealboxEvent, linkIds: string[]): SealboxEvent {
  return linkIds.length > 0 ? { ...event, linkIds } : event;
}

/** The user blocked or unblocked an account: their "Shared with me" and list of blocks changed. */
export function blocksChanged(userId: string): SealboxEvent {
  return { kind: 'blocks.changed', userIds: [userId] };
}

/** Something entered or left the owner's trash (deleted, restored, deleted for good, expired). */
export function trashChanged(ownerId: string): SealboxEvent {
  return { kind: 'trash.changed', userIds: [ownerId] };
}

export function quotaChanged(userId: string): SealboxEvent {
  return { kind: 'quota.changed', userIds: [userId] };
}
