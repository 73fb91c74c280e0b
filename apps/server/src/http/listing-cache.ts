import type { ListOptions, Listing } from '../domain/files/listing.ts';
import type { Principal } from '../domain/files/access.ts';
import { RESYNC_EVENT_KIND, type SealboxEvent } from '../ports/event-bus.ts';

/** Only answers this large are kept (about 400 items): smaller ones are quick to make anyway. */
export const MIN_CACHED_CHARS = 256 * 1024;
/** Memory bound for all kept answers together (JSON characters, one byte each: ids and base64). */
export const MAX_CACHED_CHARS = 64 * 1024 * 1024;
/** Events remembered to judge answers still being computed; more than this meanwhile: not kept. */
const RECENT_EVENTS = 1024;

interface Entry {
  json: string;
  /** Event keys that make this answer stale (see `eventKeys`). */
  deps: Set<string>;
}

/** What an answer shows: the folder and its ancestors by id, the top level by owner, the people. */
function dependencies(listing: Listing, principal: Principal, options: ListOptions): Set<string> {
  const deps = new Set<string>();
  if (options.id === undefined) deps.add(`top:${principal.userId}`);
  else deps.add(`item:${options.id}`);
  for (const ancestor of listing.ancestors ?? []) deps.add(`item:${ancestor.id}`);
  for (const user of listing.users) deps.add(`user:${user.id}`);
  return deps;
}

/** What an event touches: the item, its parent's listing (or its users' top levels), profiles. */
function eventKeys(event: SealboxEvent): string[] {
  const keys: string[] = [];
  if (event.itemId !== undefined) keys.push(`item:${event.itemId}`);
  if (event.parentId) keys.push(`item:${event.parentId}`);
  else if (event.parentId === null) for (const userId of event.userIds) keys.push(`top:${userId}`);
  if (event.kind === 'profile.changed') for (const userId of event.userIds) keys.push(`user:${userId}`);
  return keys;
}

export type ListingCache = ReturnType<typeof createListingCache>;

/**
 * Encoded answers of `GET /api/file` for whole large folders (the browser's first request for a
 * folder asks for all of it: 10,000 items are about 6 MB of JSON and 40 ms to make), kept until
 * an event names what they show. Every change publishes such an event after it commits, so
 * an answer is dropped before any request can see the change; an answer computed while an
 * event about what it shows arrived is not kept, since it may predate it.
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
    chars -= entry.json.length;
  };

  return {
    /**
     * Depth-1 listings only (deeper ones depend on every folder below), and of a folder only with
     * its ancestors: deleting or moving one of them must reach the answer (what the browser asks).
     */
    keyOf(principal: Principal, options: ListOptions): string | undefined {
      if ((options.depth ?? 1) !== 1) return undefined;
      if (options.id !== undefined && options.includeAncestors !== true) return undefined;
      return JSON.stringify([principal.userId, options.id ?? null, options.limit ?? null, options.offset ?? 0, options.includeAncestors ?? false]);
    },
    get(key: string): string | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Most recently used last, so eviction takes the oldest first.
      entries.delete(key);
      entries.set(key, entry);
      return entry.json;
    },
    /** Call before computing an answer; pass the result to `put`. */
    epoch: () => epoch,
    put(key: string, json: string, listing: Listing, principal: Principal, options: ListOptions, startedAt: number): void {
      if (json.length < MIN_CACHED_CHARS || json.length > MAX_CACHED_CHARS) return;
      if (epoch - startedAt > recent.length) return;
      const deps = dependencies(listing, principal, options);
      for (const seen of recent) {
        if (seen.epoch > startedAt && (seen.keys === 'all' || seen.keys.some((k) => deps.has(k)))) return;
      }
      const old = entries.get(key);
      if (old) drop(key, old);
      entries.set(key, { json, deps });
      chars += json.length;
      for (const [oldest, entry] of entries) {
        if (chars <= MAX_CACHED_CHARS) break;
        drop(oldest, entry);
      }
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
      for (const [key, entry] of entries) if (keys.some((k) => entry.deps.has(k))) drop(key, entry);
    },
    size: () => entries.size,
  };
}
