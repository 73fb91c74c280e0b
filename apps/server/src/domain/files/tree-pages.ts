import type { ItemRecord } from '../../ports/files.ts';
import type { FilesDeps } from './deps.ts';
import { invalid, isUuidV4 } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

/** GET /api/file/tree: items per page when the caller names no limit, and the most it may. */
export const TREE_PAGE_DEFAULT = 5000;
export const TREE_PAGE_MAX = 10_000;

export interface TreePageOptions {
  after?: string | undefined;
  limit?: number | undefined;
}

export interface TreePage {
  /** The caller's own ready items, in creation order: a parent may come after its child (a move). */
  files: ItemView[];
  /** Where the next page starts; null when this page ends the walk. */
  next: string | null;
  /** On the first page only: how many items the whole walk holds (for a progress hint). */
  total?: number;
}

/** `createdAt.id` of the last item a page gave: where the next one starts (keyset, no offsets). */
const cursorOf = (item: Pick<ItemRecord, 'createdAt' | 'id'>) => `${item.createdAt}.${item.id}`;

function parseCursor(cursor: string): Pick<ItemRecord, 'createdAt' | 'id'> {
  const dot = cursor.indexOf('.');
  const createdAt = Number(cursor.slice(0, dot));
  const id = cursor.slice(dot + 1);
  if (dot < 1 || !/^\d+$/.test(cursor.slice(0, dot)) || !Number.isSafeInteger(createdAt) || !isUuidV4(id))
    throw invalid('after must be a cursor a previous page gave');
  return { createdAt, id };
}

/**
 * GET /api/file/tree (docs/protocol.md "Tree version and search index"): the signed-in caller's
 * whole own tree, a page at a time, for the search index to rebuild from. Every ready item the
 * caller owns, at any depth, in creation order, including those under a trashed folder (the
 * trashed folder itself is not ready, so a client that keeps only what it reaches from the top
 * level leaves them out). Nobody else's items: another user's share lives in their tree.
 */
export async function ownTreePage(deps: FilesDeps, userId: string, options: TreePageOptions): Promise<TreePage> {
  const limit = options.limit ?? TREE_PAGE_DEFAULT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > TREE_PAGE_MAX) throw invalid(`limit must be 1 to ${TREE_PAGE_MAX}`);
  const after = options.after === undefined ? null : parseCursor(options.after);
  // Weighed like GET /api/file (rate-limits.ts `listedItemsActor`): by the items read.
  await deps.limiter.hit('listedItemsActor', userId);
  const [items, total] = await Promise.all([
    deps.store.ownReadyPage(userId, after, limit),
    after ? undefined : deps.store.ownReadyCount(userId),
  ]);
  await deps.limiter.charge('listedItemsActor', userId, items.length);
  const last = items.at(-1);
  return {
    files: items.map((item) => toItemView(item, 'owner')),
    next: last && items.length === limit ? cursorOf(last) : null,
    ...(total === undefined ? {} : { total }),
  };
}
