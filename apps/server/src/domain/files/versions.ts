import type { FilesReader, FilesTransaction, ItemContent, ItemRecord, PartRecord, VersionRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { canEdit, notFound, visibleItem, type AccessPath, type Principal } from './access.ts';
import { contentData, type FileData } from './data.ts';
import type { FilesDeps, FilesPorts } from './deps.ts';
import { lockedItem } from './editable.ts';
import { audienceOf, itemEvent } from './events.ts';
import { deleteBlobs } from './storage.ts';
import { invalid, uuid } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

/**
 * Versions (docs/protocol.md "Versions"): an upload over a file keeps the content it replaces as a
 * version of the same item, under the same K with its own fileNonce, in the blobs it already had.
 * The owner and editors list, download and restore versions; the owner deletes them. They count on
 * the owner's space until the newest MAX_VERSIONS push them out or the sweep thins those replaced
 * more than VERSION_RETENTION_DAYS ago.
 */

export const DEFAULT_MAX_VERSIONS = 10;
export const DEFAULT_VERSION_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Versions the sweep reads at a time; each goes in its own short transaction. */
export const VERSION_SWEEP_BATCH = 100;

/** A version as GET /api/file/{id}/versions shows it: what the browser needs to fetch and open it. */
export type VersionView = Omit<VersionRecord, 'itemId'>;

/**
 * The file's current content as the list saw it, so a client shows the current entry and the
 * earlier ones from one answer (a restore changes both at once). They are two reads, not one
 * snapshot: a restore landing between them publishes `item.versions`, and the client asks again.
 */
export type CurrentContent = Pick<ItemRecord, 'size' | 'fileNonce' | 'uploaderId' | 'modifiedAt'>;

export interface VersionList {
  current: CurrentContent;
  /** Newest content first. */
  versions: VersionView[];
}

const maxVersionsOf = (deps: FilesPorts) => deps.maxVersions ?? DEFAULT_MAX_VERSIONS;
const retentionOf = (deps: FilesPorts) => deps.versionRetentionMs ?? DEFAULT_VERSION_RETENTION_DAYS * DAY_MS;

/**
 * The file a principal may put new content into: visible (404), a file (400), editable (403).
 * A link editor may, through a link that reaches it.
 */
export async function writableFile(
  reader: FilesReader,
  principal: Principal,
  id: string,
): Promise<{ item: ItemRecord } & AccessPath> {
  const found = await visibleItem(reader, principal, id);
  if (found.item.isDirectory) throw invalid('A folder has no versions');
  if (!canEdit(found.role)) throw new DomainError('FORBIDDEN', 'Only the owner and editors may change or see earlier versions');
  return found;
}

/** `lockedItem` (the owner locked, the change allowed) of a file (400 for a folder). */
async function lockedFile(
  tx: FilesTransaction,
  principal: Principal,
  id: string,
  change: 'rename' | 'delete',
): Promise<{ item: ItemRecord } & AccessPath> {
  const found = await lockedItem(tx, principal, id, change);
  if (found.item.isDirectory) throw invalid('A folder has no versions');
  return found;
}

/** Never a (K, fileNonce) pair twice: the nonce must be new to the file's content and every kept version. */
export async function checkFreshNonce(reader: FilesReader, item: ItemRecord, fileNonce: string): Promise<void> {
  const used = item.fileNonce === fileNonce || (await reader.versions(item.id)).some((v) => v.fileNonce === fileNonce);
  if (used) throw invalid("fileNonce was used before with this file's key; encrypt the new version with a fresh one");
}

/** GET /api/file/{id}/versions. */
export async function listVersions(deps: FilesDeps, principal: Principal, id: string): Promise<VersionList> {
  uuid(id, 'id');
  const { item } = await writableFile(deps.store, principal, id);
  const current = { size: item.size, fileNonce: item.fileNonce, uploaderId: item.uploaderId, modifiedAt: item.modifiedAt };
  return { current, versions: (await deps.store.versions(item.id)).map(toVersionView) };
}

/** GET /api/file/{id}/versions/{versionId}/data: like a file's data, whole or one range. */
export async function openVersionData(
  deps: FilesDeps,
  principal: Principal,
  id: string,
  versionId: string,
  rangeHeader: string | null,
): Promise<FileData> {
  uuid(id, 'id');
  uuid(versionId, 'versionId');
  const { item } = await writableFile(deps.store, principal, id);
  const version = await versionOf(deps.store, item, versionId);
  return contentData(deps.blobs, version.size, await deps.store.versionParts(version.id), rangeHeader);
}

/**
 * POST /api/file/{id}/versions/{versionId}/restore: that version becomes the newest content and
 * the newest becomes a version, in one transaction; the others stay.
 */
export async function restoreVersion(deps: FilesDeps, principal: Principal, id: string, versionId: string): Promise<ItemView> {
  uuid(id, 'id');
  uuid(versionId, 'versionId');
  return deps.store.transaction(async (tx) => {
    // Restoring edits the item in place, as a rename does (a link editor may, on the linked item too).
    const { item, role, ancestors } = await lockedFile(tx, principal, id, 'rename');
    const version = await versionOf(tx, item, versionId);
    const parts = await tx.deleteVersions([version.id]);
    const now = deps.clock();
    await archiveContent(tx, item, now);
    for (const part of parts) await tx.putPart({ ...part, itemId: item.id });
    const content: ItemContent = { ...contentOf(version), modifiedAt: now };
    await tx.replaceContent(item, content);
    await trimVersions(deps, tx, item);
    tx.publish(itemEvent('item.versions', item, await audienceOf(tx, item, ancestors)));
    return toItemView({ ...item, ...content }, role);
  });
}

/** DELETE /api/file/{id}/versions/{versionId}: the owner's alone; its bytes are freed. */
export async function deleteVersion(deps: FilesDeps, principal: Principal, id: string, versionId: string): Promise<void> {
  uuid(id, 'id');
  uuid(versionId, 'versionId');
  await deps.store.transaction(async (tx) => {
    const { item, role, ancestors } = await lockedFile(tx, principal, id, 'delete');
    if (role !== 'owner' || principal.kind !== 'user') throw new DomainError('FORBIDDEN', 'Only the owner may delete a version');
    const version = await versionOf(tx, item, versionId);
    await freeVersions(deps, tx, item.ownerId, [version.id]);
    tx.publish(itemEvent('item.versions', item, await audienceOf(tx, item, ancestors)));
  });
}

/**
 * The file's newest content becomes a version (its parts now named by it), to be replaced by the
 * caller in the same transaction. Its date is when its last part arrived.
 */
export async function archiveContent(tx: FilesTransaction, item: ItemRecord, now: number): Promise<void> {
  if (item.fileNonce === null) throw new DomainError('INTERNAL', 'A file without a fileNonce');
  const parts = await tx.deleteParts([item.id]);
  await tx.insertVersion(
    {
      id: crypto.randomUUID(),
      itemId: item.id,
      size: item.size,
      fileNonce: item.fileNonce,
      encryptedMimeType: item.encryptedMimeType,
      mimeTypeNonce: item.mimeTypeNonce,
      uploaderId: item.uploaderId,
      createdAt: parts.reduce((latest, part) => Math.max(latest, part.createdAt), item.createdAt),
      replacedAt: now,
    },
    parts,
  );
}

/** Keeps the newest MAX_VERSIONS versions of the file; the older ones go at once. The owner is locked. */
export async function trimVersions(deps: FilesPorts, tx: FilesTransaction, item: ItemRecord): Promise<void> {
  const beyond = (await tx.versions(item.id)).slice(maxVersionsOf(deps));
  if (beyond.length > 0)
    await freeVersions(
      deps,
      tx,
      item.ownerId,
      beyond.map((v) => v.id),
    );
}

/**
 * The sweep: versions replaced more than VERSION_RETENTION_DAYS ago go, each in its own transaction
 * under its owner's lock. Of two sweeps meeting one version, only the one whose delete removed its
 * rows frees its bytes and blobs. Returns how many this sweep removed.
 */
export async function expireVersions(deps: FilesPorts): Promise<number> {
  const retention = retentionOf(deps);
  if (retention <= 0) return 0;
  let count = 0;
  for (;;) {
    const batch = await deps.store.versionsReplacedBefore(deps.clock() - retention, VERSION_SWEEP_BATCH);
    let progressed = false;
    for (const version of batch) {
      const removed = await deps.store.transaction(async (tx) => {
        const item = await tx.item(version.itemId);
        if (!item) return false;
        await tx.lockOwner(item.ownerId, { evenDeleted: true });
        if (!(await freeVersions(deps, tx, item.ownerId, [version.id]))) return false;
        // An item in the trash or being deleted is seen by nobody: nothing to tell.
        if (item.state === 'ready') tx.publish(itemEvent('item.versions', item, await audienceOf(tx, item)));
        return true;
      });
      if (removed) count++;
      progressed ||= removed;
    }
    // A batch another sweep emptied first: the next read would only find the same rows or none.
    if (batch.length < VERSION_SWEEP_BATCH || !progressed) return count;
  }
}

/** Deletes versions and frees their bytes, their blobs after the commit; whether any were still there. */
async function freeVersions(deps: FilesPorts, tx: FilesTransaction, ownerId: string, ids: readonly string[]): Promise<boolean> {
  const parts: PartRecord[] = await tx.deleteVersions(ids);
  if (parts.length === 0) return false;
  await deps.quota.freeDeleted(tx, () => ownerId, parts, []);
  tx.afterCommit(() =>
    deleteBlobs(
      deps,
      parts.map((part) => part.blobKey),
    ),
  );
  return true;
}

async function versionOf(reader: FilesReader, item: ItemRecord, versionId: string): Promise<VersionRecord> {
  const version = await reader.version(versionId);
  if (!version || version.itemId !== item.id) throw notFound('Version');
  return version;
}

function contentOf(version: VersionRecord): Omit<ItemContent, 'modifiedAt'> {
  return {
    size: version.size,
    fileNonce: version.fileNonce,
    encryptedMimeType: version.encryptedMimeType,
    mimeTypeNonce: version.mimeTypeNonce,
    uploaderId: version.uploaderId,
  };
}

function toVersionView(version: VersionRecord): VersionView {
  return {
    id: version.id,
    size: version.size,
    fileNonce: version.fileNonce,
    encryptedMimeType: version.encryptedMimeType,
    mimeTypeNonce: version.mimeTypeNonce,
    uploaderId: version.uploaderId,
    createdAt: version.createdAt,
    replacedAt: version.replacedAt,
  };
}
