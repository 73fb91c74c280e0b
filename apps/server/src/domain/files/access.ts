import type { FilesReader, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';

/**
 * Who is asking. Today a signed-in user; share links add `{ kind: 'link', linkId }` and the
 * link's permission (docs/protocol.md: "link holders act with the link's permission").
 */
export interface Principal {
  kind: 'user';
  userId: string;
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
  if (item.ownerId === principal.userId) return 'owner';
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

/** The principal may create items at the top level of their own tree only. */
export function canCreateAtTop(principal: Principal): boolean {
  return principal.kind === 'user';
}
