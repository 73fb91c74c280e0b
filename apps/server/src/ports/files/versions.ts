import type { PartRecord } from './parts.ts';

/**
 * The versions port: earlier content of files (tables `item_versions` and `item_version_parts`,
 * docs/protocol.md "Versions"). A version keeps the blobs its content had as the file's newest;
 * its parts are PartRecords whose `itemId` is the file's.
 */

export interface VersionRecord {
  id: string;
  itemId: string;
  /** Ciphertext bytes. */
  size: number;
  fileNonce: string;
  encryptedMimeType: string | null;
  mimeTypeNonce: string | null;
  /** Who uploaded that content; null for an anonymous link holder. */
  uploaderId: string | null;
  /** When that content was uploaded. */
  createdAt: number;
  /** When it stopped being the file's newest content. */
  replacedAt: number;
}

export interface VersionsReader {
  /** An item's versions, newest content first (then the latest replaced, then by id). */
  versions(itemId: string): Promise<VersionRecord[]>;
  version(id: string): Promise<VersionRecord | undefined>;
  /** A version's parts, in order of their number. */
  versionParts(versionId: string): Promise<PartRecord[]>;
}

/** Changes inside a files transaction. */
export interface VersionsWriter {
  /** Keeps content as a version: the row, and its parts (blobs already stored) named by it. */
  insertVersion(version: VersionRecord, parts: readonly PartRecord[]): Promise<void>;
  /** Deletes these versions and their part rows; returns the parts removed (none for one already gone). */
  deleteVersions(versionIds: readonly string[]): Promise<PartRecord[]>;
  /** Deletes every version of these items; returns the parts removed. */
  deleteVersionsOf(itemIds: readonly string[]): Promise<PartRecord[]>;
}

/** What the sweep asks outside any transaction. */
export interface VersionsSweep {
  /** Versions replaced at or before `before`, oldest first. */
  versionsReplacedBefore(before: number, limit: number): Promise<VersionRecord[]>;
}
