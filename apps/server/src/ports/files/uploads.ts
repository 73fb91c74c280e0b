import type { ItemRecord, Page } from './items.ts';

/** The uploads port: files still being sent in parts (table `uploads`), one row per unfinished upload. */

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
  /**
   * The file this upload becomes a new version of when it completes (docs/protocol.md
   * "Versions"); its item is then only where the parts wait. Absent or null: a new item.
   */
  versionOf?: string | null;
}

export type UploadChanges = Partial<Pick<UploadRecord, 'reservedRemaining' | 'lastActivityAt' | 'expiresAt'>>;

export interface UploadsReader {
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
}

/** Changes inside a files transaction. */
export interface UploadsWriter {
  /** Locks and returns an upload row. */
  lockUpload(id: string): Promise<UploadRecord | undefined>;
  insertUpload(upload: UploadRecord): Promise<void>;
  updateUpload(id: string, changes: UploadChanges): Promise<void>;
  /** Deletes the uploads of these items and returns them. */
  deleteUploads(itemIds: readonly string[]): Promise<UploadRecord[]>;
}

/** What the sweep asks outside any transaction. */
export interface UploadsSweep {
  /** Uploads whose expiry is at or before `now`. */
  expiredUploads(now: number, limit: number): Promise<UploadRecord[]>;
}
