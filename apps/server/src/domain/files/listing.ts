import type { ItemRecord, UserSummary } from '../../ports/files.ts';
import {
  actorKey,
  childRoles,
  linkedItemId,
  topLevelOwner,
  visibleItem,
  type AccessPath,
  type Principal,
  type Role,
} from './access.ts';
import type { FilesDeps } from './deps.ts';
import { invalid, uuid } from './validation.ts';
import { markShared, peopleOf, toItemView, type ItemView } from './view.ts';

export const MAX_DEPTH = 20;
export const DEFAULT_DEPTH = 1;
export const DEFAULT_LIMIT = 100;
/** docs/product.md "Limits": the initial load asks for 2147483648 items, meaning all of them. */
export const MAX_LIMIT = 2_147_483_648;

export interface ListOptions {
  id?: string | undefined;
  depth?: number | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  includeAncestors?: boolean | undefined;
}

export interface Listing {
  root: ItemView | null;
  files: ItemView[];
  users: UserSummary[];
  ancestors?: ItemView[];
}

/**
 * GET /api/file: the items under a folder (or the caller's top level), breadth first, level by
 * level, each level ordered by creation time then id, `offset` and `limit` applied to that whole
 * sequence. Only ready items are listed. Asked for a file, `root` is the file and `files` empty.
 * A link holder has no top level: without `id` the linked item is listed.
 */
export async function listFiles(deps: FilesDeps, principal: Principal, options: ListOptions): Promise<Listing> {
  const depth = options.depth ?? DEFAULT_DEPTH;
  const limit = options.limit ?? DEFAULT_LIMIT;
  const offset = options.offset ?? 0;
  if (!Number.isSafeInteger(depth) || depth < 1 || depth > MAX_DEPTH) throw invalid(`depth must be 1 to ${MAX_DEPTH}`);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be 1 to ${MAX_LIMIT}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalid('offset must be a whole number');

  const reader = deps.store;
  // Weighed by the items read (rate-limits.ts `listedItemsActor`): the web's whole-folder and
  // 20-level listings stay far inside it, a loop of them over a huge tree does not.
  const actor = actorKey(principal);
  await deps.limiter.hit('listedItemsActor', actor);
  // One level deep (the browser's usual call), the database applies the window itself.
  const page = depth === 1 ? { limit, offset } : undefined;
  let root: ({ item: ItemRecord } & AccessPath) | null = null;
  let level: ItemRecord[];
  // Rights inherit down a folder, so an item's role is its parent's unless the caller has an
  // access entry on the item itself (access.ts `childRoles`).
  let roleOf: (item: ItemRecord) => Role;
  const id =
    options.id !== undefined
      ? uuid(options.id, 'id')
      : principal.kind === 'link'
        ? await linkedItemId(reader, principal)
        : undefined;
  if (id !== undefined) {
    root = await visibleItem(reader, principal, id);
    level = root.item.isDirectory ? await reader.children([root.item.id], { state: 'ready', page }) : [];
    roleOf = await childRoles(reader, principal, root.role, level);
  } else {
    level = await reader.topLevel(topLevelOwner(principal), { state: 'ready', page });
    roleOf = () => 'owner';
  }

  const wholeLevel = !page || (offset === 0 && level.length < limit);
  const rootChildren = root?.item.isDirectory
    ? wholeLevel
      ? level.map((item) => item.id)
      : await reader.childIds(root.item.id, { state: 'ready' })
    : undefined;
  let read = level.length + (wholeLevel ? 0 : (rootChildren?.length ?? 0));
  // A whole large folder is 10,000+ items: the views are built in this one pass, and the people
  // collected on the way, without intermediate lists (bench/listing).
  const files: ItemView[] = [];
  const people = new Set<string>();
  const addPeople = (item: ItemRecord) => {
    for (const person of peopleOf(item)) people.add(person);
  };
  if (root) addPeople(root.item);
  let skip = page ? 0 : offset;
  for (let d = 1; d <= depth && level.length > 0; d++) {
    for (const item of level) {
      if (files.length >= limit) break;
      if (skip > 0) {
        skip--;
        continue;
      }
      files.push(toItemView(item, roleOf(item)));
      addPeople(item);
    }
    if (files.length >= limit || d === depth) break;
    const parentRoles = new Map<string, Role>();
    for (const item of level) if (item.isDirectory) parentRoles.set(item.id, roleOf(item));
    if (parentRoles.size === 0) break;
    level = await reader.children([...parentRoles.keys()], { state: 'ready' });
    read += level.length;
    roleOf = await childRoles(reader, principal, (item) => parentRoles.get(item.parentId!)!, level);
  }

  const listing: Listing = {
    root: root ? toItemView(root.item, root.role, rootChildren) : null,
    files,
    users: [],
  };
  if (options.includeAncestors) {
    const ancestors: ItemView[] = [];
    if (root) {
      // Up to the highest the caller sees (a shared folder, a linked item, or the top level).
      for (const [i, ancestor] of root.ancestors.entries()) {
        const role = root.ancestorRoles[i];
        if (!role) break;
        ancestors.unshift(toItemView(ancestor, role));
        addPeople(ancestor);
      }
    }
    listing.ancestors = ancestors;
  }
  await deps.limiter.charge('listedItemsActor', actor, read);
  listing.users = await reader.userSummaries([...people]);
  // Only a signed-in user's own listing (not through a link) says which of their items are shared.
  const caller = principal.kind === 'user' ? principal.userId : null;
  await markShared(reader, caller, listing.root ? [listing.root, ...listing.files] : listing.files, deps.clock());
  return listing;
}

/** Part of a whole depth-1 listing as it is now (see `relistItems`). */
export interface Relisted {
  /** The listed folder without `children`, or null for a top level. */
  root: ItemView | null;
  /** Each asked-for item's view if it is still in the listed level, else null. */
  items: Map<string, ItemView | null>;
}

/**
 * What a kept whole depth-1 answer needs to follow changes to some of its items
 * (http/listing-cache/): the root read and its access checked again (a lost folder or lost
 * access throws, as `listFiles` would), and each item's current view if it still belongs to
 * the level. "Belongs" is what `children` and `topLevel` select for `listFiles`: ready, and
 * under the folder, or at the top of the caller's own tree.
 */
export async function relistItems(
  deps: FilesDeps,
  principal: Principal,
  options: ListOptions,
  ids: readonly string[],
): Promise<Relisted> {
  const reader = deps.store;
  const root = options.id === undefined ? null : await visibleItem(reader, principal, uuid(options.id, 'id'));
  const belongs = (item: ItemRecord) =>
    item.state === 'ready' &&
    (root ? item.parentId === root.item.id : item.parentId === null && item.ownerId === principal.userId);
  const items = new Map<string, ItemView | null>(ids.map((id) => [id, null]));
  const level = (await reader.items(ids)).filter(belongs);
  const roleOf = await childRoles(reader, principal, root ? root.role : 'owner', level);
  for (const item of level) items.set(item.id, toItemView(item, roleOf(item)));
  const relisted = { root: root && toItemView(root.item, root.role), items };
  const caller = principal.kind === 'user' ? principal.userId : null;
  const views = [...items.values()].filter((view): view is ItemView => view !== null);
  await markShared(reader, caller, relisted.root ? [relisted.root, ...views] : views, deps.clock());
  return relisted;
}
