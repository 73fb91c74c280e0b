/** The links port: share links to an item and everything below it (table `links`). */

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
  /** When the sweep ended it, once expired (uploads ended, sockets closed); null: not ended. */
  endedAt: number | null;
}

export type LinkChanges = Partial<
  Pick<LinkRecord, 'edit' | 'passwordHash' | 'passwordEpoch' | 'expiresAt' | 'modifiedAt' | 'endedAt'>
>;

export interface LinksReader {
  link(id: string): Promise<LinkRecord | undefined>;
  /** Every link on these items, oldest first. */
  linksOn(itemIds: readonly string[]): Promise<LinkRecord[]>;
}

/** Changes inside a files transaction. */
export interface LinksWriter {
  insertLink(link: LinkRecord): Promise<void>;
  updateLink(id: string, changes: LinkChanges): Promise<void>;
  deleteLink(id: string): Promise<boolean>;
}

/** What the sweep asks outside any transaction. */
export interface LinksSweep {
  /** Links whose expiry is at or before `now` and that are not ended yet, soonest expired first. */
  linksToEnd(now: number, limit: number): Promise<LinkRecord[]>;
  /** Links that expired at or before `before`, ended or not, soonest expired first. */
  linksToRemove(before: number, limit: number): Promise<LinkRecord[]>;
}
