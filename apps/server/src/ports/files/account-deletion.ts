/**
 * The account-deletion port (docs/protocol.md "Deleting an account"): what ends an account in one
 * transaction, and what the sweep asks to finish deletions and free names later. It touches
 * `users`, `sessions`, the account's own rows (pins, recovery copy, blocks, second factor), and
 * reads `accesses` and `links` by owner.
 */

import type { LinkRecord } from './links.ts';
import type { AccessRecord } from './sharing.ts';

/** What ending an account took away, for the events and the blob deletes that follow. */
export interface EndedAccount {
  /** The sessions deleted (each one's sockets are told). */
  sessionIds: string[];
  /** The avatar the account had, whose blob goes after the commit. */
  avatarExtension: string | null;
}

export interface AccountDeletionReader {
  /** Every access entry on items the user owns, oldest first. */
  accessesGivenBy(ownerId: string): Promise<AccessRecord[]>;
  /** Every access entry the user holds on others' items, oldest first. */
  accessesHeldBy(userId: string): Promise<AccessRecord[]>;
  /** Every link on items the user owns. */
  linksOfOwner(ownerId: string): Promise<LinkRecord[]>;
  /**
   * The user's unfinished uploads in others' trees (through a link or not), with each one's
   * owner: an ended account can finish none of them.
   */
  uploadsInOthersTrees(uploaderId: string): Promise<Array<{ itemId: string; ownerId: string }>>;
}

/** Changes inside a files transaction. */
export interface AccountDeletionWriter {
  /** Deletes these access entries (item, user) in a few statements; the caller announced them. */
  deleteAccesses(entries: ReadonlyArray<Pick<AccessRecord, 'itemId' | 'userId'>>): Promise<void>;
  /** Deletes these links in a few statements; the caller announced them. */
  deleteLinks(ids: readonly string[]): Promise<void>;
  /**
   * Marks the account deleted at `now` and blanks what could open or reach it: login verifier,
   * sealed keys, email, second factor, avatar; deletes its sessions, key pins, recovery copy, TOTP
   * recovery codes and blocks (both ways). Undefined when there is no such live account (deleted meanwhile).
   */
  endAccount(userId: string, now: number): Promise<EndedAccount | undefined>;
}

/** What the sweep asks outside any transaction. */
export interface AccountDeletionSweep {
  /** Deleted accounts that still own items or have unfinished uploads of their own, oldest deletion first. */
  deletedAccountsToPurge(limit: number): Promise<string[]>;
  /** Deleted at or before `before` and still holding their username; how many names were freed. */
  freeDeletedNames(before: number, limit: number): Promise<number>;
}
