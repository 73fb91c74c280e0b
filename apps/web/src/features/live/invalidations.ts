/**
 * Which cached server state an event makes stale: exactly the listings, tree, profile or
 * session list it names, never a blanket refetch. Refetches are coalesced so a burst of
 * changes costs a few requests, not one per change.
 *
 * Every kind the server publishes has its entry in `HANDLERS`, keyed by the kinds both sides
 * share (@sealbox/rules `EventKind`): a kind added there fails typecheck here until it says what
 * it makes stale (invalidations.types.test.ts proves it; docs/protocol.md "Live updates").
 */
import { matchQuery, type Query, type QueryClient } from '@tanstack/react-query';
import { isEventKind, type EventKind } from '@sealbox/rules';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { filesKeys, isListingBelow, isListingHolding, versionsKeys } from '../items/index.ts';
import { SESSIONS_QUERY_KEY, TOTP_STATUS_QUERY_KEY, UNFINISHED_UPLOADS_QUERY_KEY } from '../profile/index.ts';
import { sharingKeys } from '../sharing/index.ts';
import { trashKeys } from '../trash/index.ts';
import type { LiveEvent } from './connection.ts';

export type Invalidation =
  | { key: readonly unknown[]; exact: boolean }
  /** The folder's own listing and every listing below it (their breadcrumbs show its name). */
  | { below: string }
  /** The listings that show this item (its shared mark changed). */
  | { holding: string };

type Handler = (event: LiveEvent) => Invalidation[];

/** The search trees: My Files', and the subtrees of what is shared with the user (/shared). */
const SEARCH_TREES: Invalidation[] = [
  { key: filesKeys.tree(OWN_SCOPE), exact: true },
  { key: sharingKeys.sharedTrees, exact: false },
];

/** A folder's listing in My Files and in /shared alike (one key per browse scope). */
const listingOf = (parentId: string | null): Invalidation => ({ key: filesKeys.folderInAnyScope(parentId), exact: false });

/** A new item: its folder's listing, and the search trees it may now be found in. */
const itemAdded: Handler = (event) => [...SEARCH_TREES, ...(event.parentId === undefined ? [] : [listingOf(event.parentId)])];

/** A renamed, moved or deleted item: as a new one, and a folder changes every path under it. */
const itemChanged: Handler = (event) => {
  const out = itemAdded(event);
  if (event.itemId) out.push({ below: event.itemId });
  return out;
};

/**
 * A batch call's items, moved or deleted (docs/protocol.md "Batch changes"): what each of them
 * would have made stale, in one event. The invalidator refreshes each query once for all of it.
 */
const itemsChanged: Handler = (event) => [
  ...SEARCH_TREES,
  ...(event.parentIds ?? []).map(listingOf),
  ...(event.itemIds ?? []).map((itemId) => ({ below: itemId })),
];

/**
 * The recipient's /shared list and its search's subtrees and, for a switch or a revoke, what
 * they had open inside it; the owner's list of who has access.
 */
const shareChanged: Handler = (event) => {
  const shared: Invalidation[] = [
    { key: sharingKeys.shared, exact: true },
    { key: sharingKeys.sharedTrees, exact: false },
  ];
  if (!event.itemId) return shared;
  return [...shared, { key: sharingKeys.users(event.itemId), exact: true }, { below: event.itemId }, { holding: event.itemId }];
};

/** New content, a restore or a deleted version: the listing (size, date) and an open list of versions. */
const versionsChanged: Handler = (event) => {
  const out = itemAdded(event);
  if (event.itemId) out.push({ key: versionsKeys.of(event.itemId), exact: false });
  return out;
};

/** That item's links, and the listings that show it (its shared mark). */
const linkChanged: Handler = (event) =>
  event.itemId ? [{ key: sharingKeys.links(event.itemId), exact: true }, { holding: event.itemId }] : [];

const HANDLERS: Record<EventKind, Handler> = {
  'item.created': itemAdded,
  'upload.completed': itemAdded,
  'item.versions': versionsChanged,
  'item.renamed': itemChanged,
  'item.moved': itemChanged,
  'item.deleted': itemChanged,
  'items.changed': itemsChanged,
  // Only the search index follows it (features/search); the item events beside it name the listings.
  'tree.changed': () => [],
  'share.created': shareChanged,
  'share.changed': shareChanged,
  'share.deleted': shareChanged,
  'link.created': linkChanged,
  'link.changed': linkChanged,
  'link.password': linkChanged,
  'link.expired': linkChanged,
  'link.deleted': linkChanged,
  // An upload started or ended in the user's tree: the space and Profile's unfinished uploads.
  'quota.changed': () => [
    { key: PROFILE_QUERY_KEY, exact: true },
    { key: UNFINISHED_UPLOADS_QUERY_KEY, exact: false },
  ],
  // Also TOTP: its recovery codes made again, or gone with it.
  'profile.changed': () => [
    { key: PROFILE_QUERY_KEY, exact: true },
    { key: TOTP_STATUS_QUERY_KEY, exact: true },
  ],
  'session.ended': () => [{ key: SESSIONS_QUERY_KEY, exact: true }],
  // The user blocked or unblocked an account: its shares leave or come back.
  // Something entered or left the trash: its list, and the space it holds (the meter).
  'trash.changed': () => [
    { key: trashKeys.all, exact: false },
    { key: PROFILE_QUERY_KEY, exact: true },
  ],
  'blocks.changed': () => [
    { key: sharingKeys.blocks, exact: true },
    { key: sharingKeys.shared, exact: true },
    { key: sharingKeys.sharedTrees, exact: false },
  ],
};

export function invalidationsFor(event: LiveEvent): Invalidation[] {
  if (isEventKind(event.kind)) return HANDLERS[event.kind](event);
  // A kind this build does not know (a newer server): anything of the files may be affected.
  return [
    { key: filesKeys.all, exact: false },
    { key: sharingKeys.sharedTrees, exact: false },
  ];
}

/**
 * One filter for a round of invalidations: a query any of them names is refreshed once, however
 * many name it (a batch of 5,000 items names a listing thousands of times over).
 */
export function staleIn(round: readonly Invalidation[]): (query: Query) => boolean {
  const below = new Set<string>();
  const holding = new Set<string>();
  const keys: Array<{ queryKey: readonly unknown[]; exact: boolean }> = [];
  for (const item of round) {
    if ('below' in item) below.add(item.below);
    else if ('holding' in item) holding.add(item.holding);
    else keys.push({ queryKey: item.key, exact: item.exact });
  }
  return (query) =>
    keys.some((filter) => matchQuery(filter, query)) ||
    (below.size > 0 && isListingBelow(query, below)) ||
    (holding.size > 0 && isListingHolding(query, holding));
}

/** Leading edge at once, then at most one round of refetches per window while changes keep coming. */
export const COALESCE_MS = 50;

/**
 * `held`: while it says so, rounds wait (their invalidations kept): a change this tab is making in
 * several calls refreshes what it touched when it ends, and a refresh between its calls only slows it.
 */
export function createInvalidator(queryClient: QueryClient, now: () => number = Date.now, held: () => boolean = () => false) {
  const pending = new Map<string, Invalidation>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlush = Number.NEGATIVE_INFINITY;
  // When the round's newest event came, and when each query's latest fetch began. A fetch begun
  // after an event already answers with its change (the server sends events once committed); the
  // refresh a bulk change makes when it ends is such a fetch, and asking again would double it.
  let newestEvent = Number.NEGATIVE_INFINITY;
  const fetchedSince = new Map<string, number>();
  const stopWatching = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'fetch') fetchedSince.set(event.query.queryHash, now());
    else if (event.type === 'removed') fetchedSince.delete(event.query.queryHash);
  });

  const flush = () => {
    if (held()) {
      timer = setTimeout(flush, COALESCE_MS);
      return;
    }
    timer = undefined;
    lastFlush = now();
    const round = [...pending.values()];
    const since = newestEvent;
    pending.clear();
    if (round.length === 0) return;
    const stale = staleIn(round);
    void queryClient.invalidateQueries({
      predicate: (query) => stale(query) && !((fetchedSince.get(query.queryHash) ?? Number.NEGATIVE_INFINITY) > since),
    });
  };

  return {
    add(invalidations: Invalidation[]): void {
      for (const item of invalidations) pending.set(JSON.stringify(item), item);
      newestEvent = now();
      if (timer === undefined) timer = setTimeout(flush, Math.max(0, lastFlush + COALESCE_MS - now()));
    },
    /**
     * After a reconnect: what was fetched before `since` may have missed changes. A link's info
     * is left to the link's own socket (features/files modes/link.ts asks it again when that
     * socket closes): the user's socket carries nothing of it, and asking it again here made the
     * link page ask it twice (its route asks it before the user's socket is up).
     */
    catchUp(since: number): void {
      void queryClient.invalidateQueries({
        predicate: (query) =>
          query.state.dataUpdatedAt > 0 &&
          query.state.dataUpdatedAt < since &&
          !matchQuery({ queryKey: sharingKeys.anyLink }, query),
      });
    },
    dispose(): void {
      clearTimeout(timer);
      stopWatching();
      pending.clear();
    },
  };
}
