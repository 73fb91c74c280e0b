import { ancestorChain, type AccessRecord, type FilesReader, type ItemRecord, type UserSummary } from '../../ports/files.ts';
import { accessPath, type UserPrincipal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { otherWorkFirst } from './event-loop.ts';
import { toAccessView, type SharedItemView } from './sharing.ts';
import { invalid } from './validation.ts';
import { peopleOf, toItemView } from './view.ts';

/**
 * GET /api/shared (docs/protocol.md "Sharing"): the caller's access entries whose items they can
 * see now, oldest share first, one page at a time. Each entry's access is decided by the one
 * access function (access.ts `accessPath`), over what a few queries read for the whole page
 * beforehand: a walk per entry made 10,000 entries some 30,000 queries in one stretch, and held
 * every other request meanwhile (issue 21).
 */

/** The largest page served (and the default); a larger `limit` is served this many. */
export const SHARED_PAGE_MAX = 1000;
/** The largest `limit` accepted: what builds before paging asked for. */
export const SHARED_MAX_LIMIT = 10_000;
/** Entries looked at between two turns of the event loop (event-loop.ts). */
const YIELD_EVERY = 250;

export interface SharedPage {
  files: SharedItemView[];
  /** Owners, uploaders and sharers of the listed items. */
  users: UserSummary[];
  /** The `offset` of the next page, or null after the last one. */
  nextOffset: number | null;
}

export async function sharedWithMe(
  deps: FilesDeps,
  callerId: string,
  options: { limit?: number | undefined; offset?: number | undefined },
): Promise<SharedPage> {
  const asked = options.limit ?? SHARED_PAGE_MAX;
  const offset = options.offset ?? 0;
  if (!Number.isSafeInteger(asked) || asked < 1 || asked > SHARED_MAX_LIMIT)
    throw invalid(`limit must be 1 to ${SHARED_MAX_LIMIT}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalid('offset must be a whole number');
  const limit = Math.min(asked, SHARED_PAGE_MAX);
  // Weighed by the entries read (rate-limits.ts `sharedEntriesAccount`).
  await deps.limiter.hit('sharedEntriesAccount', callerId);
  const entries = await deps.store.sharedWith(callerId, { limit, offset });
  await otherWorkFirst();
  const items = await deps.store.items(entries.map((entry) => entry.itemId));
  await otherWorkFirst();
  const reader = await pageReader(deps.store, callerId, items);
  const byId = new Map(items.map((item) => [item.id, item]));
  const principal: UserPrincipal = { kind: 'user', userId: callerId };
  const files: SharedItemView[] = [];
  const people = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    if (i % YIELD_EVERY === 0) await otherWorkFirst();
    const item = byId.get(entry.itemId);
    const path = item && (await accessPath(reader, principal, item));
    if (!item || !path) continue;
    files.push({ ...toItemView(item, path.role), grant: toAccessView(entry, item.ownerId) });
    for (const person of [...peopleOf(item), entry.sharerId ?? item.ownerId]) people.add(person);
  }
  await deps.limiter.charge('sharedEntriesAccount', callerId, entries.length);
  return {
    files,
    users: await deps.store.userSummaries([...people]),
    nextOffset: entries.length === limit ? offset + limit : null,
  };
}

/**
 * A reader that answers what `accessPath` asks about these items from memory: their ancestors
 * (read in one go) and the caller's access entries on them and on their ancestors. Anything else
 * goes to the store.
 */
async function pageReader(store: FilesReader, callerId: string, items: readonly ItemRecord[]): Promise<FilesReader> {
  const known = new Map(items.map((item) => [item.id, item]));
  for (const ancestor of await store.ancestorsOf(items)) known.set(ancestor.id, ancestor);
  await otherWorkFirst();
  const grants = new Map<string, AccessRecord>();
  for (const entry of await store.accessesFor(callerId, [...known.keys()])) grants.set(entry.itemId, entry);
  const answers: Pick<FilesReader, 'ancestors' | 'accessesFor'> = {
    ancestors: async (start) => ancestorChain(start, known),
    accessesFor: async (userId, itemIds) =>
      userId === callerId ? itemIds.flatMap((id) => grants.get(id) ?? []) : store.accessesFor(userId, itemIds),
  };
  return Object.assign(Object.create(store) as FilesReader, answers);
}
