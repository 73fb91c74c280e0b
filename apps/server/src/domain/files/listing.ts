import type { ItemRecord, UserSummary } from '../../ports/files.ts';
import { access, visibleItem, type Principal, type Role } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { invalid, uuid } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

export const MAX_DEPTH = 20;
export const DEFAULT_DEPTH = 1;
export const DEFAULT_LIMIT = 100;
/** SPEC 9: the initial load asks for 2147483648 items, meaning all of them. */
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
 */
export async function listFiles(deps: FilesDeps, principal: Principal, options: ListOptions): Promise<Listing> {
  const depth = options.depth ?? DEFAULT_DEPTH;
  const limit = options.limit ?? DEFAULT_LIMIT;
  const offset = options.offset ?? 0;
  if (!Number.isSafeInteger(depth) || depth < 1 || depth > MAX_DEPTH) throw invalid(`depth must be 1 to ${MAX_DEPTH}`);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be 1 to ${MAX_LIMIT}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalid('offset must be a whole number');

  const reader = deps.store;
  // One level deep (the browser's usual call), the database applies the window itself.
  const page = depth === 1 ? { limit, offset } : undefined;
  let root: { item: ItemRecord; role: Role } | null = null;
  let level: Array<{ item: ItemRecord; role: Role }>;
  if (options.id !== undefined) {
    root = await visibleItem(reader, principal, uuid(options.id, 'id'));
    level = root.item.isDirectory
      ? (await reader.children([root.item.id], { state: 'ready', page })).map((item) => ({ item, role: root!.role }))
      : [];
  } else {
    level = (await reader.topLevel(principal.userId, { state: 'ready', page })).map((item) => ({ item, role: 'owner' as Role }));
  }

  const wholeLevel = !page || (offset === 0 && level.length < limit);
  const rootChildren = root?.item.isDirectory
    ? wholeLevel
      ? level.map((e) => e.item.id)
      : await reader.childIds(root.item.id, { state: 'ready' })
    : undefined;
  const files: Array<{ item: ItemRecord; role: Role }> = [];
  let skip = page ? 0 : offset;
  for (let d = 1; d <= depth && level.length > 0; d++) {
    for (const entry of level) {
      if (files.length >= limit) break;
      if (skip > 0) skip--;
      else files.push(entry);
    }
    if (files.length >= limit || d === depth) break;
    // Rights inherit down a folder (sharing may only widen them further down).
    const roleOf = new Map(level.filter((e) => e.item.isDirectory).map((e) => [e.item.id, e.role]));
    if (roleOf.size === 0) break;
    const next = await reader.children([...roleOf.keys()], { state: 'ready' });
    level = next.map((item) => ({ item, role: roleOf.get(item.parentId!)! }));
  }

  const listing: Listing = {
    root: root ? toItemView(root.item, root.role, rootChildren) : null,
    files: files.map((e) => toItemView(e.item, e.role)),
    users: [],
  };
  const people = [...(root ? [root.item] : []), ...files.map((e) => e.item)];
  if (options.includeAncestors) {
    const ancestors: ItemView[] = [];
    if (root) {
      for (const ancestor of await reader.ancestors(root.item)) {
        const role = await access(reader, principal, ancestor);
        if (role === null) break;
        ancestors.unshift(toItemView(ancestor, role));
        people.push(ancestor);
      }
    }
    listing.ancestors = ancestors;
  }
  listing.users = await reader.userSummaries(people.flatMap((i) => [i.ownerId, i.uploaderId]));
  return listing;
}
