import type { Role } from '@sealbox/rules';
import type { FilesReader, ItemRecord, LinkRecord, UploadRecord } from '../../ports/files.ts';
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
 * Made by `linkPrincipal` (links.ts) from `?linkId=` and the link's access proof.
 */
export interface LinkPrincipal {
  kind: 'link';
  linkId: string;
  userId: string | null;
  /** When the request began (epoch ms): the link must not have expired by then. */
  at: number;
  /** The password epoch the request's access proof was made for; null without a proof. */
  proofEpoch: number | null;
  /**
   * The client's address as rate limits count it (http/client-ip.ts): anonymous holders are
   * known by the link and their address, so each address has its own limits on the link.
   */
  address: string;
}

/** The roles and who may edit are the rules both sides share (@sealbox/rules). */
export { canEdit, type Role } from '@sealbox/rules';

/**
 * Whether a link lets this principal in at all: it exists, has not expired and, when it has a
 * password, the principal proved it for the password as it is now (a change bumps the epoch).
 */
export function linkAdmits(link: LinkRecord | undefined, principal: LinkPrincipal): link is LinkRecord {
  return (
    link !== undefined &&
    link.id === principal.linkId &&
    (link.expiresAt === null || link.expiresAt > principal.at) &&
    (link.passwordHash === null || principal.proofEpoch === link.passwordEpoch)
  );
}

const grantRole = (edit: boolean): Role => (edit ? 'editor' : 'viewer');

/**
 * The one place that decides what a principal may do with an item (docs/protocol.md "Threat table":
 * "owner, access entry, or link, with editor rights inherited down folders"). `path` is an item and
 * its ancestors, nearest first; the answer is the role on each of them (null: not visible):
 * - the owner of the tree is owner everywhere in it;
 * - another user has the role of the nearest access entry on the item or above it (an editor
 *   entry on a folder makes its whole subtree editable, a viewer entry further down narrows
 *   that part again);
 * - a link holder has the link's role on the linked item and below it, nothing above or beside
 *   it, and only while the link admits them (`linkAdmits`). A link holder's own account, if
 *   signed in, adds nothing: they act with the link's permission.
 * States are not looked at here (see `accessPath`).
 */
export async function rolesAlong(
  reader: FilesReader,
  principal: Principal,
  path: readonly ItemRecord[],
): Promise<Array<Role | null>> {
  const roles: Array<Role | null> = path.map(() => null);
  if (path.length === 0) return roles;
  if (principal.kind === 'user') {
    // One owner per tree: moves stay within it and items made by others inside belong to it.
    if (path[0]!.ownerId === principal.userId) return path.map((item) => (item.ownerId === principal.userId ? 'owner' : null));
    const grants = new Map(
      (
        await reader.accessesFor(
          principal.userId,
          path.map((item) => item.id),
        )
      ).map((a) => [a.itemId, a]),
    );
    if (grants.size === 0) return roles;
    let role: Role | null = null;
    for (let i = path.length - 1; i >= 0; i--) {
      const grant = grants.get(path[i]!.id);
      if (grant) role = grantRole(grant.edit);
      roles[i] = role;
    }
    return roles;
  }
  const link = await reader.link(principal.linkId);
  if (!linkAdmits(link, principal)) return roles;
  const at = path.findIndex((item) => item.id === link.itemId);
  for (let i = 0; i <= at; i++) roles[i] = grantRole(link.edit);
  return roles;
}

/**
 * The roles of items listed under folders the principal sees: `inherited` (their parent's),
 * except where a user has an access entry on the item itself (the nearest grant counts).
 */
export async function childRoles(
  reader: FilesReader,
  principal: Principal,
  inherited: Role | ((item: ItemRecord) => Role),
  items: readonly ItemRecord[],
): Promise<(item: ItemRecord) => Role> {
  const parentRole = typeof inherited === 'function' ? inherited : () => inherited;
  if (principal.kind !== 'user' || items.length === 0 || items[0]!.ownerId === principal.userId) return parentRole;
  const grants = new Map(
    (
      await reader.accessesFor(
        principal.userId,
        items.map((item) => item.id),
      )
    ).map((a) => [a.itemId, a]),
  );
  if (grants.size === 0) return parentRole;
  return (item) => {
    const grant = grants.get(item.id);
    return grant ? grantRole(grant.edit) : parentRole(item);
  };
}

/** `access`: the role on an item, or null when the principal may not see it. */
export async function access(reader: FilesReader, principal: Principal, item: ItemRecord): Promise<Role | null> {
  return (await accessPath(reader, principal, item))?.role ?? null;
}

export interface AccessPath {
  role: Role;
  /** The item's ancestors, parent first. */
  ancestors: ItemRecord[];
  /** The role on each ancestor (null where the principal sees no further up). */
  ancestorRoles: Array<Role | null>;
}

/**
 * `access`, with the item's ancestors (parent first) it read on the way and the roles on them.
 * Items still uploading, and everything in a folder being deleted, are visible to nobody.
 */
export async function accessPath(reader: FilesReader, principal: Principal, item: ItemRecord): Promise<AccessPath | null> {
  if (item.state !== 'ready') return null;
  // A stranger is turned away before any further read.
  if (principal.kind === 'user' && item.ownerId !== principal.userId && !(await mayHaveGrant(reader, principal, item)))
    return null;
  const ancestors = item.parentId === null ? [] : await reader.ancestors(item);
  // A delete marks only its folder and removes the rest in batches (deletion.ts): the whole
  // subtree must vanish with the mark, and nothing may be added, moved or changed under it.
  if (ancestors.some((ancestor) => ancestor.state !== 'ready')) return null;
  const [role, ...ancestorRoles] = await rolesAlong(reader, principal, [item, ...ancestors]);
  if (!role) return null;
  return { role, ancestors, ancestorRoles };
}

/** Cheap first look: a top-level item of someone else is visible only through an entry on it. */
async function mayHaveGrant(reader: FilesReader, principal: UserPrincipal, item: ItemRecord): Promise<boolean> {
  if (item.parentId !== null) return true;
  return (await reader.accessesFor(principal.userId, [item.id])).length > 0;
}

/** Missing, still uploading and not visible answer alike (docs/protocol.md). */
export function notFound(what = 'Item'): DomainError {
  return new DomainError('NOT_FOUND', `${what} not found`);
}

/** The item, the principal's role on it and its ancestors; NOT_FOUND when they may not see it. */
export async function visibleItem(
  reader: FilesReader,
  principal: Principal,
  id: string,
): Promise<{ item: ItemRecord } & AccessPath> {
  const item = await reader.item(id);
  const path = item ? await accessPath(reader, principal, item) : null;
  if (!item || path === null) throw notFound();
  return { item, ...path };
}

/** The item a link principal's link names; NOT_FOUND when the link does not admit them. */
export async function linkedItemId(reader: FilesReader, principal: LinkPrincipal): Promise<string> {
  const link = await reader.link(principal.linkId);
  if (!linkAdmits(link, principal)) throw notFound('Link');
  return link.itemId;
}

/**
 * The user whose own tree's top level the principal means: only a signed-in user has one (a link
 * holder sees the linked item and below it).
 */
export function topLevelOwner(principal: Principal): string {
  if (principal.kind !== 'user') throw new DomainError('FORBIDDEN', 'Only the owner may create items at the top level');
  return principal.userId;
}

/** Who an item is recorded as made by: the signed-in user, or null for an anonymous link holder. */
export function uploaderOf(principal: Principal): string | null {
  return principal.userId;
}

/** The link an upload is started through, recorded with it (`ownsUpload`). */
export function uploadLinkOf(principal: Principal): string | null {
  return principal.kind === 'link' ? principal.linkId : null;
}

/**
 * Whether an upload is started by an anonymous link holder, recorded with it (`ownsUpload`): the
 * user id recorded for one is the owner's, so it cannot tell them from the owner or others.
 */
export function startedAnonymously(principal: Principal): boolean {
  return principal.kind === 'link' && principal.userId === null;
}

/**
 * Whether the principal may send, resume, complete or abort this upload: whoever started it,
 * the same way. A signed-in user on their own; through a link, the same signed-in user through
 * that link, or for an anonymous start any anonymous holder of it (they are known by the link
 * alone), never one across the other.
 */
export function ownsUpload(principal: Principal, upload: Pick<UploadRecord, 'userId' | 'linkId' | 'anonymous'>): boolean {
  if (principal.kind === 'user') return upload.linkId === null && upload.userId === principal.userId;
  if (upload.linkId !== principal.linkId) return false;
  const anonymous = principal.userId === null;
  // Rows from builds before migration 010 do not say; they keep the rule of those builds.
  if (upload.anonymous === null) return anonymous || upload.userId === principal.userId;
  return upload.anonymous === anonymous && (anonymous || upload.userId === principal.userId);
}

/**
 * What counts a principal's requests (rate limits): a user, or for an anonymous link holder the
 * link and their address, so one holder using up a limit leaves the link's other holders theirs.
 */
export function actorKey(principal: Principal): string {
  return principal.kind === 'user' ? principal.userId : (principal.userId ?? `link:${principal.linkId}\0${principal.address}`);
}
