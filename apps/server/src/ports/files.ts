import type { SealboxEvent } from './event-bus.ts';
import type { AccountDeletionReader, AccountDeletionSweep, AccountDeletionWriter } from './files/account-deletion.ts';
import type { BlocksReader, BlocksWriter } from './files/blocks.ts';
import type { ItemsReader, ItemsSweep, ItemsWriter } from './files/items.ts';
import type { LinksReader, LinksSweep, LinksWriter } from './files/links.ts';
import type { PartsReader, PartsSweep, PartsWriter } from './files/parts.ts';
import type { PeopleReader } from './files/people.ts';
import type { SharingReader, SharingWriter } from './files/sharing.ts';
import type { TreeVersionReader } from './files/tree-version.ts';
import type { UploadsReader, UploadsSweep, UploadsWriter } from './files/uploads.ts';
import type { VersionsReader, VersionsSweep, VersionsWriter } from './files/versions.ts';

/**
 * Storage the files domain needs, in its own terms (no SQL, no column names), one port per
 * what it holds (ports/files/): items, parts, versions, uploads, sharing (access entries), blocks, links,
 * people and the ending of accounts, put together here into the one store every files service gets. The quota port
 * (files/quota.ts) is not part of it: only domain/files/quota.ts receives that. One adapter
 * per port over Kysely serves both dialects (infra/db/files/). Every change runs inside
 * `transaction`, where `lockOwner` serialises the quota and tree changes of one owner across
 * instances.
 */

export type { BlockRecord } from './files/blocks.ts';
export { ancestorChain, byListingOrder } from './files/items.ts';
export type { ItemChanges, ItemContent, ItemRecord, ItemState, NewItem, Page } from './files/items.ts';
export type { LinkChanges, LinkRecord } from './files/links.ts';
export type { PartRecord } from './files/parts.ts';
export type { PublicUser, UserSummary } from './files/people.ts';
export type { AccessChanges, AccessRecord } from './files/sharing.ts';
export type { UploadChanges, UploadRecord } from './files/uploads.ts';
export type { VersionRecord } from './files/versions.ts';

export interface FilesReader
  extends ItemsReader,
    PartsReader,
    UploadsReader,
    SharingReader,
    BlocksReader,
    LinksReader,
    PeopleReader,
    AccountDeletionReader,
    VersionsReader,
    TreeVersionReader {}

export interface FilesTransaction
  extends FilesReader,
    ItemsWriter,
    PartsWriter,
    UploadsWriter,
    SharingWriter,
    BlocksWriter,
    LinksWriter,
    AccountDeletionWriter,
    VersionsWriter {
  /**
   * Locks the user row for the rest of the transaction (SELECT ... FOR UPDATE on PostgreSQL;
   * SQLite transactions are serialised already). NOT_FOUND when the account was deleted, unless
   * `evenDeleted` (the purge of what it left): a request that was under way when its owner's
   * account ended adds no share, link or block to it.
   */
  lockOwner(userId: string, options?: { evenDeleted?: boolean }): Promise<void>;
  /** Queued until commit; dropped on rollback. */
  publish(event: SealboxEvent): void;
  /** Runs after commit (blob deletions); never on rollback. */
  afterCommit(fn: () => void | Promise<void>): void;
}

export interface FilesStore
  extends FilesReader,
    ItemsSweep,
    PartsSweep,
    UploadsSweep,
    LinksSweep,
    AccountDeletionSweep,
    VersionsSweep {
  transaction<T>(fn: (tx: FilesTransaction) => Promise<T>): Promise<T>;
}
