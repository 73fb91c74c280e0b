import type { SealboxEvent } from './event-bus.ts';

/**
 * Storage the files domain needs, in its own terms (no SQL, no column names). One adapter over
 * Kysely serves both dialects (infra/db/files/). Every change runs inside `transaction`, where
 * `lockOwner` serialises the quota and tree changes of one owner across instances.
 */

/** 'deleting': a folder whose delete is in progress; it and its subtree go in batches. */
export type ItemState = 'uploading' | 'ready' | 'deleting';

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
}

/** An item as it is created; a delete begins later, with `markDeleting`. */
export type NewItem = ItemRecord & { state: Exclude<ItemState, 'deleting'> };

export type ItemChanges = Partial<
  Pick<NewItem, 'parentId' | 'encryptedFileName' | 'nameNonce' | 'encryptedKey' | 'keyNonce' | 'state' | 'modifiedAt'>
>;

export interface PartRecord {
  itemId: string;
  n: number;
  size: number;
  blobKey: string;
  createdAt: number;
}

export interface UploadRecord {
  id: string;
  itemId: string;
  /** The uploader (for an anonymous link holder: the owner, who handed out the link). */
  userId: string;
  /** The link it was started through; null when started by a signed-in user without one. */
  linkId: string | null;
  /**
   * Started by a link holder who was not signed in (their `userId` is the owner's, so it alone
   * cannot tell them from the owner); null: unknown, a row an older build wrote.
   */
  anonymous: boolean | null;
  size: number;
  parts: number;
  /** Bytes of the item owner's reserved space this upload still holds. */
  reservedRemaining: number;
  createdAt: number;
  lastActivityAt: number;
  expiresAt: number;
}

export interface QuotaRecord {
  userId: string;
  usedSpace: number;
  reservedSpace: number;
  totalSpace: number;
  /** Items the user owns, whatever their state. */
  itemCount: number;
}

/** One item shared with one user: the grant the recipient verifies, and the role it gives. */
export interface AccessRecord {
  itemId: string;
  userId: string;
  /** K under the recipient's RSA-OAEP key. */
  encryptedKey: string;
  /** The sharer's signature over the grant, base64. */
  signature: string;
  edit: boolean;
  /** Who signed the grant; null on entries from before it was recorded (the owner's). */
  sharerId: string | null;
  createdAt: number;
}

export type AccessChanges = Pick<AccessRecord, 'edit' | 'signature'>;

/** A user (`userId`) does not want shares from another account (`blockedId`). */
export interface BlockRecord {
  userId: string;
  blockedId: string;
  createdAt: number;
}

/** A share link to one item (and everything below it). */
export interface LinkRecord {
  /** 128 random bits, unpadded base64url (22 characters). */
  id: string;
  itemId: string;
  edit: boolean;
  /** argon2id of the link password, or null. */
  passwordHash: string | null;
  /** Counts password changes; an access proof is good for one epoch only. */
  passwordEpoch: number;
  /** Epoch milliseconds, or null for never. */
  expiresAt: number | null;
  createdAt: number;
  modifiedAt: number;
}

export type LinkChanges = Partial<Pick<LinkRecord, 'edit' | 'passwordHash' | 'passwordEpoch' | 'modifiedAt'>>;

/** What a sharer needs of a person: who they are and their public keys. */
export interface PublicUser {
  id: string;
  username: string;
  publicKey: string;
  signingPublicKey: string;
  avatarExtension: string | null;
}

export interface UserSummary {
  id: string;
  username: string;
  avatarExtension: string | null;
}

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

export interface FilesReader {
  item(id: string): Promise<ItemRecord | undefined>;
  /** These items, those that exist, in no particular order. */
  items(ids: readonly string[]): Promise<ItemRecord[]>;
  /** Children of these folders (any state unless given), in `byListingOrder`; `page` only for one folder. */
  children(parentIds: readonly string[], options?: { state?: ItemState; page?: Page }): Promise<ItemRecord[]>;
  /** Ids of one folder's children of that state, ordered like `children`. */
  childIds(parentId: string, options?: { state?: ItemState }): Promise<string[]>;
  /** The owner's top-level items of that state, in `byListingOrder`. */
  topLevel(ownerId: string, options?: { state?: ItemState; page?: Page }): Promise<ItemRecord[]>;
  /** Up to `limit` children of one folder, any state, in no particular order (a delete's walk). */
  someChildren(parentId: string, limit: number): Promise<ItemRecord[]>;
  /** Parent first, up to the top-level item. Stops at a missing parent. */
  ancestors(item: ItemRecord): Promise<ItemRecord[]>;
  /** Every ancestor of these items, each once, in no particular order: a few queries for a page. */
  ancestorsOf(items: readonly ItemRecord[]): Promise<ItemRecord[]>;
  /**
   * Levels of the subtree at this item, the item itself being level 1 (so 1 for a file or an
   * empty folder). Counting stops past `atMost`: the answer is at most atMost + 1.
   */
  subtreeHeight(id: string, atMost: number): Promise<number>;
  parts(itemId: string): Promise<PartRecord[]>;
  upload(id: string): Promise<UploadRecord | undefined>;
  /**
   * The whole size of the unfinished uploads started through a link, or by a signed-in user in
   * an owner's tree (through a link or not): what the caps of docs/operations.md count.
   */
  unfinishedBytes(by: { linkId: string } | { uploaderId: string; ownerId: string }): Promise<number>;
  /** Unfinished uploads started through this link. */
  uploadsVia(linkId: string): Promise<UploadRecord[]>;
  /** Unfinished uploads a signed-in user started in this owner's tree without a link. */
  uploadsBy(uploaderId: string, ownerId: string): Promise<UploadRecord[]>;
  /** The unfinished uploads in an owner's tree with their items, newest first (then by id), one page. */
  unfinishedIn(ownerId: string, page: Page): Promise<Array<{ upload: UploadRecord; item: ItemRecord }>>;
  /** How many unfinished uploads an owner's tree holds. */
  unfinishedCount(ownerId: string): Promise<number>;
  quota(userId: string): Promise<QuotaRecord | undefined>;
  userSummaries(ids: readonly string[]): Promise<UserSummary[]>;
  publicUsers(ids: readonly string[]): Promise<PublicUser[]>;
  /** The user's access entries on these items (those that exist). */
  accessesFor(userId: string, itemIds: readonly string[]): Promise<AccessRecord[]>;
  /** Every access entry on these items, oldest first. */
  accessesOn(itemIds: readonly string[]): Promise<AccessRecord[]>;
  /**
   * The user's access entries, oldest first (then by item id), one page; entries on items of an
   * account the user blocks are left out (before paging, so pages stay stable).
   */
  sharedWith(userId: string, page: Page): Promise<AccessRecord[]>;
  /** The accounts the user blocks, oldest block first. */
  blocksOf(userId: string): Promise<BlockRecord[]>;
  /** Those of `userIds` who block `blockedId`. */
  blockersAmong(blockedId: string, userIds: readonly string[]): Promise<Set<string>>;
  link(id: string): Promise<LinkRecord | undefined>;
  /** Every link on these items, oldest first. */
  linksOn(itemIds: readonly string[]): Promise<LinkRecord[]>;
}

export interface FilesTransaction extends FilesReader {
  /**
   * Locks the user row for the rest of the transaction (SELECT ... FOR UPDATE on PostgreSQL;
   * SQLite transactions are serialised already) and returns its quota.
   */
  lockOwner(userId: string): Promise<QuotaRecord | undefined>;
  /** Locks and returns an upload row. */
  lockUpload(id: string): Promise<UploadRecord | undefined>;
  /** CONFLICT when the id exists. Counts the item in its owner's itemCount. */
  insertItem(item: NewItem): Promise<void>;
  updateItem(id: string, changes: ItemChanges): Promise<void>;
  /** The folder's state becomes 'deleting' (since `at`) until its rows are gone. */
  markDeleting(id: string, at: number): Promise<void>;
  /**
   * Deletes items whose children are already gone (or in the same list, deepest first) and
   * takes them off their owners' itemCount; ids already gone are skipped, so never counted twice.
   */
  deleteItems(ids: readonly string[]): Promise<void>;
  /** Inserts or replaces part n of an item; returns the replaced part, if any. */
  putPart(part: PartRecord): Promise<PartRecord | undefined>;
  /** Deletes every part of these items and returns them. */
  deleteParts(itemIds: readonly string[]): Promise<PartRecord[]>;
  insertUpload(upload: UploadRecord): Promise<void>;
  updateUpload(
    id: string,
    changes: Partial<Pick<UploadRecord, 'reservedRemaining' | 'lastActivityAt' | 'expiresAt'>>,
  ): Promise<void>;
  /** Deletes the uploads of these items and returns them. */
  deleteUploads(itemIds: readonly string[]): Promise<UploadRecord[]>;
  /** CONFLICT when the user has an entry on the item already. */
  insertAccess(access: AccessRecord): Promise<void>;
  /** False when there was no such entry. */
  updateAccess(itemId: string, userId: string, changes: AccessChanges): Promise<boolean>;
  deleteAccess(itemId: string, userId: string): Promise<boolean>;
  /** Adds the block unless it is there already; false when it was. */
  insertBlock(block: BlockRecord): Promise<boolean>;
  /** False when there was no such block. */
  deleteBlock(userId: string, blockedId: string): Promise<boolean>;
  insertLink(link: LinkRecord): Promise<void>;
  updateLink(id: string, changes: LinkChanges): Promise<void>;
  deleteLink(id: string): Promise<boolean>;
  /** Adds the deltas to the user's used and reserved space. */
  adjustSpace(userId: string, delta: { used?: number; reserved?: number }): Promise<void>;
  /** Queued until commit; dropped on rollback. */
  publish(event: SealboxEvent): void;
  /** Runs after commit (blob deletions); never on rollback. */
  afterCommit(fn: () => void | Promise<void>): void;
}

export interface FilesStore extends FilesReader {
  transaction<T>(fn: (tx: FilesTransaction) => Promise<T>): Promise<T>;
  /** Uploads whose expiry is at or before `now`. */
  expiredUploads(now: number, limit: number): Promise<UploadRecord[]>;
  /** Links whose expiry is at or before `now`, soonest expired first. */
  expiredLinks(now: number, limit: number): Promise<LinkRecord[]>;
  /** Items in state 'deleting' (deletes a crash may have cut short), oldest first. */
  deletesInProgress(limit: number): Promise<ItemRecord[]>;
  /** Which of these blob keys a part row names. */
  namedBlobKeys(keys: readonly string[]): Promise<Set<string>>;
}
