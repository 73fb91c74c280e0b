import { DEFAULT_LIMIT, type ListOptions, type Listing, type Relisted } from '../../domain/files/listing.ts';
import type { UserPrincipal } from '../../domain/files/access.ts';
import { ITEM_EVENT_KINDS, SHARE_EVENT_KINDS } from '../../domain/files/events.ts';
import { peopleOf, type ItemView } from '../../domain/files/view.ts';
import { RESYNC_EVENT_KIND, type SealboxEvent } from '../../ports/event-bus.ts';
import { byListingOrder } from '../../ports/files.ts';

/** Only answers this large are kept (about 400 items): smaller ones are quick to make anyway. */
export const MIN_CACHED_CHARS = 256 * 1024;
/** Memory bound for all kept answers together (JSON characters, one byte each: ids and base64). */
export const MAX_CACHED_CHARS = 64 * 1024 * 1024;
/** Events remembered to judge answers still being computed; more than this meanwhile: not kept. */
const RECENT_EVENTS = 1024;
/** Changed items re-read on the next request; more than this, and the answer is made afresh. */
export const MAX_PENDING = 256;
/** Events about one item of a level: the level follows them by re-reading that item. */
const ITEM_EVENTS: ReadonlySet<string> = new Set(ITEM_EVENT_KINDS);
/**
 * A share created, switched or removed changes what its users may see and do anywhere below
 * the item, and a kept answer skips the access check: every answer kept for them is dropped.
 */
const SHARE_EVENTS: ReadonlySet<string> = new Set(SHARE_EVENT_KINDS);

/** Items per block: a change re-encodes one block, not the whole level. */
const BLOCK_ITEMS = 256;

/** Consecutive items of a level, with their part of the answer encoded once. */
interface Block {
  views: ItemView[];
  /** The views' JSON, comma-separated, and their ids (the root's `children`); undefined when changed. */
  json: string | undefined;
  ids: string | undefined;
}

/**
 * A whole depth-1 level (the folder's every listed item, or the caller's whole top level) kept
 * in blocks, so a change to one item costs re-reading that item and re-encoding its block of
 * 256, not 10,000 items.
 */
interface Level {
  /** What `parentId` of an event about one of its items says: the folder, or null at the top. */
  parentId: string | null;
  /** Whose top level (events at the top name their users). */
  userId: string;
  limit: number;
  root: ItemView | null;
  /** In listing order, none empty. */
  blocks: Block[];
  byId: Map<string, ItemView>;
  /** How many times each person is shown (root, items, ancestors): `users` lists exactly these. */
  people: Map<string, number>;
  users: string;
  ancestors: string | undefined;
  /** Items changed since the blocks were last brought up to date. */
  pending: Set<string>;
  patching: Promise<void> | undefined;
}

interface Entry {
  /** The whole answer; undefined while a level has changes to take in. */
  json: string | undefined;
  /** Event keys that make this answer stale (see `eventKeys`). */
  deps: Set<string>;
  /** Characters held, for the memory bound. */
  chars: number;
  level: Level | undefined;
}

/**
 * What an answer shows: the folder and its ancestors by id, the top level by owner, the people;
 * and whose it is (`caller:`), for the share events that change what that caller may see.
 */
function dependencies(listing: Listing, principal: UserPrincipal, options: ListOptions): Set<string> {
  const deps = new Set<string>();
  if (options.id === undefined) deps.add(`top:${principal.userId}`);
  else deps.add(`item:${options.id}`);
  for (const ancestor of listing.ancestors ?? []) deps.add(`item:${ancestor.id}`);
  for (const user of listing.users) deps.add(`user:${user.id}`);
  deps.add(`caller:${principal.userId}`);
  return deps;
}

/** What an event touches: the item, its parent's listing (or its users' top levels), profiles. */
function eventKeys(event: SealboxEvent): string[] {
  const keys: string[] = [];
  if (event.itemId !== undefined) keys.push(`item:${event.itemId}`);
  if (event.parentId) keys.push(`item:${event.parentId}`);
  else if (event.parentId === null) for (const userId of event.userIds) keys.push(`top:${userId}`);
  if (event.kind === 'profile.changed') for (const userId of event.userIds) keys.push(`user:${userId}`);
  if (SHARE_EVENTS.has(event.kind)) for (const userId of event.userIds) keys.push(`caller:${userId}`);
  return keys;
}

type Place = Pick<ItemView, 'createdAt' | 'id'>;

/** A level from a fresh whole listing, or undefined when the answer is not one. */
function levelOf(listing: Listing, principal: UserPrincipal, options: ListOptions): Level | undefined {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const whole = (options.offset ?? 0) === 0 && listing.files.length < limit;
  const folder = options.id === undefined ? listing.root === null : listing.root?.isDirectory === true;
  if (!whole || !folder) return undefined;
  const blocks: Block[] = [];
  for (let i = 0; i < listing.files.length; i += BLOCK_ITEMS) blocks.push(encoded(listing.files.slice(i, i + BLOCK_ITEMS)));
  const people = new Map<string, number>();
  const count = (view: ItemView) => {
    for (const person of peopleOf(view)) people.set(person, (people.get(person) ?? 0) + 1);
  };
  if (listing.root) count(listing.root);
  for (const view of listing.files) count(view);
  for (const view of listing.ancestors ?? []) count(view);
  let root: ItemView | null = null;
  if (listing.root) {
    const { children: _children, ...rest } = listing.root;
    root = rest;
  }
  return {
    parentId: listing.root?.id ?? null,
    userId: principal.userId,
    limit,
    root,
    blocks,
    byId: new Map(listing.files.map((view) => [view.id, view])),
    people,
    users: JSON.stringify(listing.users),
    ancestors: listing.ancestors && JSON.stringify(listing.ancestors),
    pending: new Set(),
    patching: undefined,
  };
}

/** A block of views with its part of the answer: their JSON array without the brackets. */
function encoded(views: ItemView[]): Block {
  return { views, json: JSON.stringify(views).slice(1, -1), ids: JSON.stringify(views.map((view) => view.id)).slice(1, -1) };
}

/** The answer `JSON.stringify(listing)` would give, from the encoded parts. */
function encodeLevel(level: Level): string {
  for (const [i, block] of level.blocks.entries()) if (block.json === undefined) level.blocks[i] = encoded(block.views);
  // `children` comes last in an item view (view.ts), so it goes just before the closing brace.
  const root = level.root
    ? `${JSON.stringify(level.root).slice(0, -1)},"children":[${level.blocks.map((block) => block.ids).join(',')}]}`
    : 'null';
  let json = `{"root":${root},"files":[${level.blocks.map((block) => block.json).join(',')}],"users":${level.users}`;
  if (level.ancestors !== undefined) json += `,"ancestors":${level.ancestors}`;
  return `${json}}`;
}

/** Characters a level holds besides the whole answer (the views are counted as their JSON). */
function levelChars(level: Level): number {
  let chars = 0;
  for (const block of level.blocks) chars += 2 * (block.json?.length ?? 0) + (block.ids?.length ?? 0);
  return chars;
}

/**
 * Takes in re-read items. False when the answer cannot follow: the people shown would change
 * (the users list would need reading again) or the level no longer fits in one answer.
 */
function patchLevel(level: Level, relisted: Relisted): boolean {
  const shift = (people: readonly string[], by: 1 | -1): boolean => {
    for (const person of people) {
      const before = level.people.get(person) ?? 0;
      // A person appearing or disappearing changes `users`.
      if (before === 0 || before + by === 0) return false;
      level.people.set(person, before + by);
    }
    return true;
  };
  // Each new view is counted before its old one is let go, so an unchanged person stays shown.
  if (level.root && relisted.root) {
    if (!shift(peopleOf(relisted.root), 1) || !shift(peopleOf(level.root), -1)) return false;
    level.root = relisted.root;
  }
  for (const [id, view] of relisted.items) {
    if (view && !shift(peopleOf(view), 1)) return false;
    const old = level.byId.get(id);
    if (old) {
      if (!shift(peopleOf(old), -1)) return false;
      remove(level.blocks, old);
      level.byId.delete(id);
    }
    if (view) {
      insert(level.blocks, view);
      level.byId.set(id, view);
    }
  }
  return level.byId.size < level.limit;
}

const changed = (views: ItemView[]): Block => ({ views, json: undefined, ids: undefined });

function remove(blocks: Block[], view: ItemView): void {
  const b = blockFor(blocks, view);
  const block = blocks[b]!;
  block.views.splice(indexOf(block.views, view), 1);
  blocks.splice(b, 1, ...(block.views.length > 0 ? [changed(block.views)] : []));
}

function insert(blocks: Block[], view: ItemView): void {
  if (blocks.length === 0) {
    blocks.push(changed([view]));
    return;
  }
  const b = blockFor(blocks, view);
  const views = blocks[b]!.views;
  views.splice(indexOf(views, view), 0, view);
  const half = views.length >> 1;
  blocks.splice(
    b,
    1,
    ...(views.length >= 2 * BLOCK_ITEMS ? [changed(views.slice(0, half)), changed(views.slice(half))] : [changed(views)]),
  );
}

/** The block a view is in, or belongs in: the first whose last view is not before it, else the last. */
function blockFor(blocks: readonly Block[], place: Place): number {
  let low = 0;
  let high = blocks.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byListingOrder(blocks[mid]!.views.at(-1)!, place) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Where a view is, or belongs, among views in listing order. */
function indexOf(views: readonly ItemView[], place: Place): number {
  let low = 0;
  let high = views.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byListingOrder(views[mid]!, place) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether an event names one item of this level, so re-reading that item keeps it right. */
function followedBy(level: Level, deps: Set<string>, event: SealboxEvent): boolean {
  if (!ITEM_EVENTS.has(event.kind) || event.itemId === undefined || deps.has(`item:${event.itemId}`)) return false;
  if (level.pending.size >= MAX_PENDING) return false;
  return level.parentId === null
    ? event.parentId === null && event.userIds.includes(level.userId)
    : event.parentId === level.parentId;
}

export type ListingCache = ReturnType<typeof createListingCache>;

/**
 * Encoded answers of `GET /api/file` for whole large folders (the browser's first request for a
 * folder asks for all of it: 10,000 items are about 6 MB of JSON and 40 ms to make), kept until
 * an event names what they show. Every change publishes such an event after it commits, so
 * an answer is dropped, or marked for the items to re-read, before any request can see the
 * change; an answer computed while an event about what it shows arrived is not kept, since it
 * may predate it.
 *
 * A whole level follows changes to its own items (created, renamed, moved in or out, deleted):
 * the next request re-reads just those items and re-encodes them, instead of all of them. A
 * change to the folder itself, an ancestor or a person shown drops the answer.
 *
 * Only for a single instance (SQLite): with several, another instance's event arrives a moment
 * after the commit, and a request landing here in between would get the old answer while the
 * client, told by its socket, expects the new one.
 */
export function createListingCache() {
  const entries = new Map<string, Entry>();
  let chars = 0;
  /** Events seen so far, and the keys of the most recent ones (a resync counts as touching all). */
  let epoch = 0;
  const recent: Array<{ epoch: number; keys: string[] | 'all' }> = [];

  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    chars -= entry.chars;
  };
  const resize = (entry: Entry) => {
    const size = (entry.json?.length ?? 0) + (entry.level ? levelChars(entry.level) : 0);
    chars += size - entry.chars;
    entry.chars = size;
  };
  const evict = () => {
    for (const [oldest, entry] of entries) {
      if (chars <= MAX_CACHED_CHARS) break;
      drop(oldest, entry);
    }
  };

  /** Re-reads a level's pending items once and takes them in (or drops the entry). */
  async function patch(key: string, entry: Entry, level: Level, relist: (ids: readonly string[]) => Promise<Relisted>) {
    const ids = [...level.pending];
    level.pending.clear();
    const relisted = await relist(ids).catch(() => undefined);
    if (entries.get(key) !== entry) return;
    // On failure (the folder gone or no longer visible) the fresh listing gives the answer.
    if (!relisted || !patchLevel(level, relisted)) return drop(key, entry);
    entry.json = undefined;
    resize(entry);
  }

  return {
    /**
     * Depth-1 listings only (deeper ones depend on every folder below), and of a folder only with
     * its ancestors: deleting or moving one of them must reach the answer (what the browser asks).
     */
    keyOf(principal: UserPrincipal, options: ListOptions): string | undefined {
      if ((options.depth ?? 1) !== 1) return undefined;
      if (options.id !== undefined && options.includeAncestors !== true) return undefined;
      return JSON.stringify([
        principal.userId,
        options.id ?? null,
        options.limit ?? null,
        options.offset ?? 0,
        options.includeAncestors ?? false,
      ]);
    },
    /**
     * The kept answer, if any. `relist` re-reads changed items of a whole level for the caller
     * of this request (the key names the caller and the query, so any caller's is the same).
     */
    async get(key: string, relist: (ids: readonly string[]) => Promise<Relisted>): Promise<string | undefined> {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Most recently used last, so eviction takes the oldest first.
      entries.delete(key);
      entries.set(key, entry);
      const level = entry.level;
      // Until nothing is pending or being re-read: also waits for another request's re-read
      // rather than answer without it. Between the last check and the encoding below nothing
      // is awaited, so no event can slip in unseen.
      while (level && entries.get(key) === entry && (level.patching || level.pending.size > 0)) {
        level.patching ??= patch(key, entry, level, relist).finally(() => {
          level.patching = undefined;
        });
        await level.patching;
      }
      if (entries.get(key) !== entry) return undefined;
      if (entry.json === undefined) {
        entry.json = encodeLevel(entry.level!);
        resize(entry);
        evict();
      }
      return entry.json;
    },
    /** Call before computing an answer; pass the result to `put`. */
    epoch: () => epoch,
    /** The answer encoded, and kept if it is large and nothing it shows changed meanwhile. */
    put(key: string, listing: Listing, principal: UserPrincipal, options: ListOptions, startedAt: number): string {
      const level = levelOf(listing, principal, options);
      const json = level ? encodeLevel(level) : JSON.stringify(listing);
      // Held: the answer, and a level's blocks and views besides (about three times the answer).
      const held = json.length + (level ? levelChars(level) : 0);
      if (json.length < MIN_CACHED_CHARS || held > MAX_CACHED_CHARS) return json;
      if (epoch - startedAt > recent.length) return json;
      const deps = dependencies(listing, principal, options);
      for (const seen of recent) {
        if (seen.epoch > startedAt && (seen.keys === 'all' || seen.keys.some((k) => deps.has(k)))) return json;
      }
      const old = entries.get(key);
      if (old) drop(key, old);
      const entry: Entry = { json, deps, chars: 0, level };
      entries.set(key, entry);
      resize(entry);
      evict();
      return json;
    },
    /** Subscribed to the event bus. */
    apply(event: SealboxEvent): void {
      const keys = event.kind === RESYNC_EVENT_KIND ? 'all' : eventKeys(event);
      recent.push({ epoch: ++epoch, keys });
      if (recent.length > RECENT_EVENTS) recent.shift();
      if (keys === 'all') {
        entries.clear();
        chars = 0;
        return;
      }
      for (const [key, entry] of entries) {
        if (!keys.some((k) => entry.deps.has(k))) continue;
        if (entry.level && followedBy(entry.level, entry.deps, event)) {
          entry.level.pending.add(event.itemId!);
          entry.json = undefined;
          resize(entry);
        } else {
          drop(key, entry);
        }
      }
    },
    size: () => entries.size,
  };
}
