/**
 * What Info's Versions section lists (docs/web-files.md "Versions"): the file's current content
 * first, as "Current", then its earlier versions (newest first), both from the one list answer, and
 * which of their actions this user has.
 */
import type { FileVersions } from '../items/index.ts';
import type { ItemView } from '../../model/items.ts';

export interface VersionEntry {
  /** The version's id; null for the current content (the item itself). */
  versionId: string | null;
  /** When that content was uploaded. */
  at: number;
  /** Plaintext bytes. */
  size: number;
  uploaderId: string | null;
}

export function versionEntries({ current: now, versions }: FileVersions): VersionEntry[] {
  const current: VersionEntry = { versionId: null, at: now.modifiedAt, size: now.size, uploaderId: now.uploaderId };
  const earlier = [...versions]
    .sort((a, b) => b.replacedAt - a.replacedAt)
    .map((v) => ({ versionId: v.id, at: v.createdAt, size: v.size, uploaderId: v.uploaderId }));
  return [current, ...earlier];
}

/**
 * Whether Info shows a file's versions at all: the owner and editors see them (a viewer's calls
 * are refused), never a folder nor an item in the trash (restore it first).
 */
export function showsVersions(item: Pick<ItemView, 'isDirectory' | 'editPermission' | 'trashed' | 'decrypted'>): boolean {
  return !item.isDirectory && item.editPermission && !item.trashed && item.decrypted;
}

/** Only the owner deletes a version (docs/protocol.md "Versions"); editors restore and download. */
export function deletesVersions(item: Pick<ItemView, 'ownerId'>, myUserId: string | undefined): boolean {
  return myUserId !== undefined && item.ownerId === myUserId;
}
