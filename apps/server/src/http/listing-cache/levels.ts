import type { Listing, ListOptions, Relisted } from '../../domain/files/listing.ts';
import { DEFAULT_LIMIT } from '../../domain/files/listing.ts';
import type { UserPrincipal } from '../../domain/files/access.ts';
import { ITEM_EVENT_KINDS } from '../../domain/files/events.ts';
import { peopleOf, type ItemView } from '../../domain/files/view.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';
import { byListingOrder } from '../../ports/files.ts';

/**
 * A whole level kept in blocks of encoded items (listing-cache.ts keeps them): how one is made
 * from a fresh listing, encoded into the answer, and patched with re-read items.
 */

/** Changed items re-read on the next request; more than this, and the answer is made afresh. */
export const MAX_PENDING = 256;
/** Events about one item of a level: the level follows them by re-reading that item. */
const ITEM_EVENTS: ReadonlySet<string> = new Set(ITEM_EVENT_KINDS);

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
export interface Level {
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

type Place = Pick<ItemView, 'createdAt' | 'id'>;

/** A level from a fresh whole listing, or undefined when the answer is not one. */
export function levelOf(listing: Listing, principal: UserPrincipal, options: ListOptions): Level | undefined {
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
export function encodeLevel(level: Level): string {
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
export function levelChars(level: Level): number {
  let chars = 0;
  for (const block of level.blocks) chars += 2 * (block.json?.length ?? 0) + (block.ids?.length ?? 0);
  return chars;
}

/**
 * Takes in re-read items. False when the answer cannot follow: the people shown would change
 * (the users list would need reading again) or the level no longer fits in one answer.
 */
export function patchLevel(level: Level, relisted: Relisted): boolean {
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
export function followedBy(level: Level, deps: Set<string>, event: SealboxEvent): boolean {
  if (!ITEM_EVENTS.has(event.kind) || event.itemId === undefined || deps.has(`item:${event.itemId}`)) return false;
  if (level.pending.size >= MAX_PENDING) return false;
  return level.parentId === null
    ? event.parentId === null && event.userIds.includes(level.userId)
    : event.parentId === level.parentId;
}
