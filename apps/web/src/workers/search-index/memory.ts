/**
 * The search index in the worker's memory: every own item's decrypted name by id, matched the
 * way the old tree search matched (features/files/sorting.ts `searchItems`: the trimmed query,
 * lower-cased, anywhere in the lower-cased name). Kept current folder by folder: a folder's
 * fresh listing replaces what the index held under it. Pure: no I/O.
 */
import { extensionOf } from '@sealbox/rules';
import type { ItemView } from '../../model/items.ts';
import type { IndexEntry } from './seal.ts';

/** A path longer than this is a cycle in bad data, not a tree (the server stops at 20 levels). */
const MAX_PATH = 64;

export interface Found {
  /** The matches, at most `max` of them (in no particular order). */
  results: ItemView[];
  /** How many matched in all. */
  total: number;
  /** The folders above the results, for their "My Files / a / b". */
  folders: ItemView[];
  /**
   * Found in the names record alone (names.ts): each item has its id, name, folder and kind, but
   * no size, dates, mime type or uploader yet.
   */
  partial?: true;
}

export class MemoryIndex {
  private readonly byId = new Map<string, IndexEntry>();
  private readonly lower = new Map<string, string>();

  /**
   * `ownerId`'s own tree (only their items, each reachable from the top level); or, `shared`,
   * what is shared with them: others' items with their owner and edit right, taken whole each
   * time /shared is opened, each shared item the top of its own subtree.
   */
  constructor(
    readonly ownerId: string,
    entries: readonly IndexEntry[] = [],
    readonly shared = false,
  ) {
    this.take(entries);
  }

  /** Adds or replaces these entries, as stored. */
  take(entries: readonly IndexEntry[]): void {
    for (const entry of entries) this.put(entry);
  }

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** How deep the folder is (0: the top level; unknown folders last). */
  depthOf(id: string | null): number {
    let depth = 0;
    for (let at = id; at !== null && depth <= MAX_PATH; depth++) {
      const entry = this.byId.get(at);
      if (!entry) return MAX_PATH + 1;
      at = entry[1];
    }
    return depth;
  }

  private put(entry: IndexEntry): void {
    this.byId.set(entry[0], entry);
    this.lower.set(entry[0], entry[2].toLocaleLowerCase());
  }

  private drop(id: string): void {
    this.byId.delete(id);
    this.lower.delete(id);
  }

  /** Adds or replaces these items (undecrypted ones are left out: they have no name to find). */
  add(items: readonly ItemView[]): void {
    for (const item of items)
      if (item.decrypted && item.name !== null && (this.shared || item.ownerId === this.ownerId))
        this.put(entryOf(item, this.shared));
  }

  /**
   * The folder's children are now `items`: what it held before and is not among them left it
   * (deleted, trashed, moved away). What was under those stays, unreachable, until `prune`:
   * a restore brings it back whole. Answers the folders among `items` the index did not hold
   * (their contents are not in it yet), and whether anything changed.
   */
  replaceChildren(parentId: string | null, items: readonly ItemView[]): { fresh: string[]; changed: boolean } {
    const now = new Set(items.map((item) => item.id));
    let changed = false;
    for (const [id, entry] of this.byId)
      if (entry[1] === parentId && !now.has(id)) {
        this.drop(id);
        changed = true;
      }
    const fresh = items.filter((item) => item.isDirectory && !this.byId.has(item.id)).map((item) => item.id);
    for (const item of items) {
      if (item.parentId !== parentId) continue;
      const before = this.byId.get(item.id);
      this.add([item]);
      const after = this.byId.get(item.id);
      if (before === undefined ? after !== undefined : after === undefined || before.some((v, i) => v !== after[i]))
        changed = true;
    }
    return { fresh, changed };
  }

  /** Whether the item's folders all lead up to the top level (it is not under something gone). */
  private reachable(entry: IndexEntry, memo: Map<string, boolean>): boolean {
    // Taken whole from the shared list and its subtrees: nothing in it is left behind.
    if (this.shared) return true;
    const chain: string[] = [];
    let at: IndexEntry | undefined = entry;
    let verdict = false;
    while (at && chain.length < MAX_PATH) {
      const known = memo.get(at[0]);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      chain.push(at[0]);
      if (at[1] === null) {
        verdict = true;
        break;
      }
      at = this.byId.get(at[1]);
    }
    for (const id of chain) memo.set(id, verdict);
    return verdict;
  }

  /** Drops the entries no longer reachable from the top level. */
  prune(): void {
    const memo = new Map<string, boolean>();
    for (const entry of [...this.byId.values()]) if (!this.reachable(entry, memo)) this.drop(entry[0]);
  }

  find(query: string, max: number): Found {
    const q = query.trim().toLocaleLowerCase();
    if (q === '') return { results: [], total: 0, folders: [] };
    const memo = new Map<string, boolean>();
    const results: ItemView[] = [];
    let total = 0;
    for (const [id, name] of this.lower) {
      if (!name.includes(q)) continue;
      const entry = this.byId.get(id)!;
      if (!this.reachable(entry, memo)) continue;
      total++;
      if (results.length < max) results.push(this.viewOf(entry));
    }
    const folders = new Map<string, ItemView>();
    for (const item of results) {
      let at = item.parentId;
      while (at !== null && !folders.has(at) && folders.size < results.length * MAX_PATH) {
        const parent = this.byId.get(at);
        if (!parent) break;
        folders.set(at, this.viewOf(parent));
        at = parent[1];
      }
    }
    return { results, total, folders: [...folders.values()] };
  }

  entries(): IndexEntry[] {
    return [...this.byId.values()];
  }

  private viewOf(entry: IndexEntry): ItemView {
    const [
      id,
      parentId,
      name,
      isDirectory,
      mimeType,
      size,
      cipherSize,
      createdAt,
      modifiedAt,
      uploaderId,
      ownerId,
      edit,
      untrusted,
    ] = entry;
    return {
      id,
      name,
      mimeType,
      extension: isDirectory ? '' : extensionOf(name),
      isDirectory,
      parentId,
      size,
      cipherSize,
      createdAt,
      modifiedAt,
      ownerId: ownerId ?? this.ownerId,
      uploaderId,
      editPermission: edit ?? true,
      decrypted: true,
      ...(untrusted ? { untrusted: true as const } : {}),
    };
  }
}

/** The item as the index keeps it; `shared` adds whose it is and the rights the user has on it. */
export function entryOf(item: ItemView, shared = false): IndexEntry {
  const entry: IndexEntry = [
    item.id,
    item.parentId,
    item.name ?? '',
    item.isDirectory,
    item.mimeType,
    item.size,
    item.cipherSize,
    item.createdAt,
    item.modifiedAt,
    item.uploaderId,
  ];
  if (shared) entry.push(item.ownerId, item.editPermission, item.untrusted === true);
  return entry;
}
