import type { FilesReader, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';

/** Who is asking: a signed-in user, or the holder of a share link. */
export type Principal = UserPrincipal | LinkPrincipal;

export interface UserPrincipal {
  kind: 'user';
  userId: string;
}

/**
 * The holder of a share link acts with the link's permission on the linked item and below it
 * only (docs/protocol.md "Share links"); `userId` is whoever is signed in meanwhile, if anyone.
 * No route makes one until links exist.
 */
export interface LinkPrincipal {
  kind: 'link';
  linkId: string;
  userId: string | null;
}

export type Role = 'owner' | 'editor' | 'viewer';

/**
 * The one place that decides what a principal may do with an item (DESIGN 7: "owner, access
 * entry, or link, with editor rights inherited down folders"). Items still uploading, and
 * everything in a folder being deleted, are visible to nobody. Today only the owner has a role;
 * sharing extends `ownRole` with the access entries and links of the item and its ancestors
 * (the nearest grant counts, and an editor grant on a folder makes its whole subtree
 * editable), and every route follows.
 */
export async function access(reader: FilesReader, principal: Principal, item: ItemRecord): Promise<Role | null> {
  return (await accessPath(reader, principal, item))?.role ?? null;
}

/** `access`, with the item's ancestors (parent first) it read on the way. */
export async function accessPath(
  reader: FilesReader,
  principal: Principal,
  item: ItemRecord,
): Promise<{ role: Role; ancestors: ItemRecord[] } | null> {
  const role = ownRole(principal, item);
  if (role === null) return null;
  const ancestors = item.parentId === null ? [] : await reader.ancestors(item);
  // A delete marks only its folder and removes the rest in batches (deletion.ts): the whole
  // subtree must vanish with the mark, and nothing may be added, moved or changed under it.
  if (ancestors.some((ancestor) => ancestor.state !== 'ready')) return null;
  return { role, ancestors };
}

/** The role the item gives by itself, its ancestors aside. */
export function ownRole(principal: Principal, item: ItemRecord): Role | null {
  if (item.state !== 'ready') return null;
  if (principal.kind === 'user' && item.ownerId === principal.userId) return 'owner';
  return null;
}

export const canEdit = (role: Role | null): boolean => role === 'owner' || role === 'editor';

/** Missing, still uploading and not visible answer alike (docs/protocol.md). */
export function notFound(what = 'Item'): DomainError {
  return new DomainError('NOT_FOUND', `${what} not found`);
}

/** The item, the principal's role on it and its ancestors; NOT_FOUND when they may not see it. */
export async function visibleItem(
  reader: FilesReader,
  principal: Principal,
  id: string,
): Promise<{ item: ItemRecord; role: Role; ancestors: ItemRecord[] }> {
  const item = await reader.item(id);
  const path = item ? await accessPath(reader, principal, item) : null;
  if (!item || path === null) throw notFound();
  return { item, ...path };
}

/**
 * The user whose own tree's top level the principal means: only a signed-in user has one (a link
 * holder sees the linked item and below it).
 */
export function topLevelOwner(principal: Principal): string {
  if (principal.kind !== 'user') throw new DomainError('FORBIDDEN', 'Only the owner may create items at the top level');
  return principal.userId;
}

/**
 * Who an upload is recorded as coming from (and who may resume it): the signed-in user, or for
 * an anonymous link holder the owner, who handed out the link.
 */
export function uploaderOf(principal: Principal, ownerId: string): string {
  return principal.userId ?? ownerId;
}

/** What counts a principal's requests (rate limits): a user, or a link for its anonymous holders. */
export function actorKey(principal: Principal): string {
  return principal.kind === 'user' ? principal.userId : (principal.userId ?? `link:${principal.linkId}`);
}
