/**
 * The items port: the tree of folders and files (table `items`), read and changed. Record types
 * of the files store live beside the port that holds them; ports/files.ts puts the ports together.
 */

/**
 * 'deleting': a folder whose delete is in progress; it and its subtree go in batches.
 * 'trashed': an item a delete moved to its owner's trash; it and its subtree are hidden until
 * restored or deleted for good (a purge marks it 'deleting', which wins).
 */
export type ItemState = 'uploading' | 'ready' | 'deleting' | 'trashed';

export interface ItemRecord {
  id: string;
  parentId: string | null;
  ownerId: string;
  /** Who created it: a user, or null for an anonymous link holder (docs/protocol.md `Item`). */
  uploaderId: string | null;
  isDirectory: boolean;
  encryptedFileName: string;
  nameNonce: string;
  encryptedMimeType: string | null;
  mimeTypeNonce: string | null;
  encryptedKey: string;
  keyNonce: string | null;
  fileNonce: string | null;
  /** Ciphertext bytes (0 for a folder). */
  size: number;
  state: ItemState;
  createdAt: number;
  modifiedAt: number;
  /** When a delete moved it to the trash, and who; null when it is not a trashed item itself. */
  trashedAt?: number | null;
  trashedBy?: string | null;
}

/** An item as it is created; a delete begins later, with `markDeleting` or `markTrashed`. */
export type NewItem = ItemRecord & { state: Exclude<ItemState, 'deleting' | 'trashed'> };

export type ItemChanges = Partial<
  Pick<NewItem, 'parentId' | 'encryptedFileName' | 'nameNonce' | 'encryptedKey' | 'keyNonce' | 'state' | 'modifiedAt'>
>;

/** What a file's newest content is: replaced by a new version or a restored one (versions.ts). */
export type ItemContent = Pick<
  ItemRecord,
  'size' | 'fileNonce' | 'encryptedMimeType' | 'mimeTypeNonce' | 'uploaderId' | 'modifiedAt'
>;

/** A window of an ordered listing, applied by the database. */
export interface Page {
  limit: number;
  offset: number;
}

/** The order of listed items (`children`, `topLevel`): creation time, then id. */
export function byListingOrder(a: Pick<ItemRecord, 'createdAt' | 'id'>, b: Pick<ItemRecord, 'createdAt' | 'id'>): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * An item's ancestors, nearest first, from rows read beforehand: following parent ids, stopping
 * at a missing parent and (on inconsistent data) at a cycle.
 */
export function ancestorChain(start: Pick<ItemRecord, 'id' | 'parentId'>, byId: ReadonlyMap<string, ItemRecord>): ItemRecord[] {
  const out: ItemRecord[] = [];
  const seen = new Set([start.id]);
  let parentId = start.parentId;
  while (parentId !== null && !seen.has(parentId)) {
    const parent = byId.get(parentId);
    if (!parent) break;
    out.push(parent);
    seen.add(parent.id);
    parentId = parent.parentId;
  }
  return out;
}

export interface ItemsReader {
  item(id: string): Promise<ItemRecord | undefined>;
  /** These items, those that exist, in no particular order. */
  items(ids: readonly string[]): Promise<ItemRecord[]>;
  /** Children of these folders (any state unless given), in `byListingOrder`; `page` only for one folder. */
  children(parentIds: readonly string[], options?: { state?: ItemState; page?: Page }): Promise<ItemRecord[]>;
  /** Ids of one folder's children of that state, ordered like `children`. */
  childIds(parentId: string, options?: { state?: ItemState }): Promise<string[]>;
  /** The owner's top-level items of that state, in `byListingOrder`. */
  topLevel(ownerId: string, options?: { state?: ItemState; page?: Page }): Promise<ItemRecord[]>;
  /**
   * Up to `limit` of the owner's ready items (every level, trashed subtrees' items included: only
   * the trashed item itself is marked), in `byListingOrder`, from just after `after` (keyset).
   */
  ownReadyPage(ownerId: string, after: Pick<ItemRecord, 'createdAt' | 'id'> | null, limit: number): Promise<ItemRecord[]>;
  /** How many items `ownReadyPage` walks through from the start. */
  ownReadyCount(ownerId: string): Promise<number>;
  /** Up to `limit` children of one folder, any state, in no particular order (a delete's walk). */
  someChildren(parentId: string, limit: number): Promise<ItemRecord[]>;
  /** The owner's trash: the items a delete moved there (not what is under them), latest first. */
  trashOf(ownerId: string, page: Page): Promise<ItemRecord[]>;
  /** The bytes stored for everything in the owner's trash (the trashed items and all under them, with their versions). */
  trashBytes(ownerId: string): Promise<number>;
  /** Which of these folders have at least one child (a delete's walk takes the empty ones at once). */
  foldersWithChildren(folderIds: readonly string[]): Promise<Set<string>>;
  /** Parent first, up to the top-level item. Stops at a missing parent. */
  ancestors(item: ItemRecord): Promise<ItemRecord[]>;
  /** Every ancestor of these items, each once, in no particular order: a few queries for a page. */
  ancestorsOf(items: readonly ItemRecord[]): Promise<ItemRecord[]>;
  /**
   * Levels of the subtree at this item, the item itself being level 1 (so 1 for a file or an
   * empty folder). Counting stops past `atMost`: the answer is at most atMost + 1.
   */
  subtreeHeight(id: string, atMost: number): Promise<number>;
}

/** Changes inside a files transaction. */
export interface ItemsWriter {
  /** CONFLICT when the id exists. Counts the item in its owner's itemCount. */
  insertItem(item: NewItem): Promise<void>;
  updateItem(id: string, changes: ItemChanges): Promise<void>;
  /** The file's content becomes `content` (its parts are changed apart, with PartsWriter). */
  replaceContent(item: Pick<ItemRecord, 'id' | 'ownerId'>, content: ItemContent): Promise<void>;
  /** The item goes to its owner's trash (state 'trashed'), with its subtree; `by` deleted it. */
  markTrashed(id: string, at: number, by: string | null): Promise<void>;
  /** The item leaves the trash (state 'ready' again, or 'uploading' never: only ready items go there). */
  clearTrashed(id: string): Promise<void>;
  /** The folder's state becomes 'deleting' (since `at`) until its rows are gone. */
  markDeleting(id: string, at: number): Promise<void>;
  /**
   * Deletes items whose children are already gone (or in the same list, deepest first) and
   * takes them off their owners' itemCount; ids already gone are skipped, so never counted twice.
   */
  deleteItems(ids: readonly string[]): Promise<void>;
}

/** What the sweep asks outside any transaction. */
export interface ItemsSweep {
  /** Items in state 'deleting' (deletes a crash may have cut short), oldest first. */
  deletesInProgress(limit: number): Promise<ItemRecord[]>;
  /** Items moved to the trash at or before `before` (not being deleted yet), oldest first. */
  trashedBefore(before: number, limit: number): Promise<ItemRecord[]>;
}
