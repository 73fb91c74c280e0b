import type { Page } from './items.ts';

/** The sharing port: items shared with users, one access entry per item and user (table `accesses`). */

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

export interface SharingReader {
  /** The user's access entries on these items (those that exist). */
  accessesFor(userId: string, itemIds: readonly string[]): Promise<AccessRecord[]>;
  /** Every access entry on these items, oldest first. */
  accessesOn(itemIds: readonly string[]): Promise<AccessRecord[]>;
  /**
   * The user's access entries, oldest first (then by item id), one page; entries on items of an
   * account the user blocks are left out (before paging, so pages stay stable).
   */
  sharedWith(userId: string, page: Page): Promise<AccessRecord[]>;
}

/** Changes inside a files transaction. */
export interface SharingWriter {
  /** CONFLICT when the user has an entry on the item already. */
  insertAccess(access: AccessRecord): Promise<void>;
  /** False when there was no such entry. */
  updateAccess(itemId: string, userId: string, changes: AccessChanges): Promise<boolean>;
  deleteAccess(itemId: string, userId: string): Promise<boolean>;
}
