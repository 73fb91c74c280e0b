import type { Principal, UserPrincipal } from '../../domain/files/access.ts';
import type { FilesDeps } from '../../domain/files/deps.ts';
import { LINK_EVENT_KINDS, SHARE_EVENT_KINDS } from '../../domain/files/events.ts';
import { listFiles, relistItems, type ListOptions, type Listing, type Relisted } from '../../domain/files/listing.ts';
import { RESYNC_EVENT_KIND, type SealboxEvent } from '../../ports/event-bus.ts';
import { encodeLevel, followedBy, levelChars, levelOf, patchLevel, type Level } from './levels.ts';

export { MAX_PENDING } from './levels.ts';

/** Only answers this large are kept (about 400 items): smaller ones are quick to make anyway. */
export const MIN_CACHED_CHARS = 256 * 1024;
/** Memory bound for all kept answers together (JSON characters, one byte each: ids and base64). */
export const MAX_CACHED_CHARS = 64 * 1024 * 1024;
/** Events remembered to judge answers still being computed; more than this meanwhile: not kept. */
const RECENT_EVENTS = 1024;
/**
 * A share created, switched or removed changes what its users may see and do anywhere below
 * the item, and a kept answer skips the access check: every answer kept for them is dropped.
 */
const SHARE_EVENTS: ReadonlySet<string> = new Set(SHARE_EVENT_KINDS);
/** A link made or removed changes which of the owner's items their listings mark as shared. */
const LINK_EVENTS: ReadonlySet<string> = new Set(LINK_EVENT_KINDS);

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
  for (const itemId of event.itemIds ?? []) keys.push(`item:${itemId}`);
  // A batch's items.changed names many folders; any other event one at most.
  const parents = event.parentIds ?? (event.parentId === undefined ? [] : [event.parentId]);
  for (const parentId of parents) {
    if (parentId !== null) keys.push(`item:${parentId}`);
    else for (const userId of event.userIds) keys.push(`top:${userId}`);
  }
  if (event.kind === 'profile.changed') for (const userId of event.userIds) keys.push(`user:${userId}`);
  if (SHARE_EVENTS.has(event.kind) || LINK_EVENTS.has(event.kind))
    for (const userId of event.userIds) keys.push(`caller:${userId}`);
  return keys;
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

  /**
   * Depth-1 listings only (deeper ones depend on every folder below), and of a folder only with
   * its ancestors: deleting or moving one of them must reach the answer (what the browser asks).
   */
  function keyOf(principal: UserPrincipal, options: ListOptions): string | undefined {
    if ((options.depth ?? 1) !== 1) return undefined;
    if (options.id !== undefined && options.includeAncestors !== true) return undefined;
    return JSON.stringify([
      principal.userId,
      options.id ?? null,
      options.limit ?? null,
      options.offset ?? 0,
      options.includeAncestors ?? false,
    ]);
  }

  /**
   * The kept answer, if any. `relist` re-reads changed items of a whole level for the caller
   * of this request (the key names the caller and the query, so any caller's is the same).
   */
  async function get(key: string, relist: (ids: readonly string[]) => Promise<Relisted>): Promise<string | undefined> {
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
  }

  /** The answer encoded, and kept if it is large and nothing it shows changed meanwhile. */
  function put(key: string, listing: Listing, principal: UserPrincipal, options: ListOptions, startedAt: number): string {
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
  }

  return {
    /**
     * The answer of GET /api/file, the listing handler's one call: the kept one if there is,
     * else a fresh listing, encoded and kept when it qualifies. Only signed-in users' listings
     * are kept: a link holder's are few and short-lived.
     */
    async serve(files: FilesDeps, principal: Principal, options: ListOptions): Promise<Listing | Response> {
      const key = principal.kind === 'user' ? keyOf(principal, options) : undefined;
      if (principal.kind !== 'user' || key === undefined) return listFiles(files, principal, options);
      const cached = await get(key, (ids) => relistItems(files, principal, options, ids));
      if (cached !== undefined) return jsonAnswer(cached);
      const startedAt = epoch;
      const listing = await listFiles(files, principal, options);
      return jsonAnswer(put(key, listing, principal, options, startedAt));
    },
    keyOf,
    get,
    /** Call before computing an answer; pass the result to `put`. */
    epoch: () => epoch,
    put,
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

/** An answer already encoded: sent as it is, typed as Elysia types JSON. */
function jsonAnswer(json: string): Response {
  return new Response(json, { headers: { 'content-type': 'application/json;charset=utf-8' } });
}
