import { DEFAULT_DELETED_NAME_GRACE_DAYS, finishAccountDeletes } from './account-deletion.ts';
import { PART_KEY_PREFIX, partKeyTime } from './blob-keys.ts';
import { finishDeletes } from './deletion.ts';
import type { FilesPorts } from './deps.ts';
import { expireLinks } from './links.ts';
import { expireTrash } from './trash.ts';
import { deleteBlobs } from './storage.ts';
import { expireUploads, PART_COMMIT_DEADLINE_MS } from './uploads.ts';
import { expireVersions } from './versions.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Keys checked against the database per query. */
const BATCH = 500;

/**
 * With several instances (PostgreSQL), a blob written moments ago may belong to a request of
 * another instance that has not committed its row yet; parts give up after
 * PART_COMMIT_DEADLINE_MS, so twice that is safe. A single instance at start has no such
 * requests and sweeps everything (graceMs 0).
 */
export const SHARED_SWEEP_GRACE_MS = 2 * PART_COMMIT_DEADLINE_MS;

export interface SweepReport {
  finishedDeletes: number;
  expiredUploads: number;
  orphanBlobs: number;
  /** Links ended as they expired (still listed to their owners). */
  expiredLinks: number;
  /** Links removed EXPIRED_LINK_KEPT_MS after they expired. */
  removedLinks: number;
  /** Deleted accounts whose items a crash or a shutdown had left, now removed. */
  purgedAccounts: number;
  /** Usernames of deleted accounts freed after their grace period. */
  freedNames: number;
  /** Items deleted for good after TRASH_RETENTION_DAYS in the trash. */
  expiredTrash: number;
  /** Versions deleted VERSION_RETENTION_DAYS after they stopped being the newest. */
  expiredVersions: number;
}

export interface SweepOptions {
  /** Part blobs younger than this are left alone (SHARED_SWEEP_GRACE_MS with several instances). */
  graceMs: number;
  /** How long a deleted account's username stays reserved (DELETED_NAME_GRACE_DAYS). */
  nameGraceMs?: number;
  /**
   * Leaves deleted accounts' purges out (the start-up sweep, which the server waits for before
   * it listens: they give way to requests and may take long; `finishAccountDeletes` runs after).
   */
  skipAccounts?: boolean;
}

/**
 * The start-up (and periodic) sweep of docs/protocol.md "Crash safety": folder deletes cut
 * short are finished, expired uploads go with their parts and reserved bytes, then every part
 * blob that no row names and that is older than graceMs is deleted, and expired share links end
 * (link.expired closes their sockets), to be removed 30 days later (links.ts). Deleted accounts
 * are finished first (account-deletion.ts) and their names freed after the grace period. A delete still running
 * elsewhere is helped along rather than waited for: two purges of one tree are safe.
 */
export async function sweep(deps: FilesPorts, options: SweepOptions): Promise<SweepReport> {
  const accounts = options.skipAccounts
    ? { purged: 0, freedNames: 0 }
    : await finishAccountDeletes(deps, options.nameGraceMs ?? DEFAULT_DELETED_NAME_GRACE_DAYS * DAY_MS);
  const expiredTrash = await expireTrash(deps, deps.trashRetentionMs ?? 0);
  const expiredVersions = await expireVersions(deps);
  const finishedDeletes = await finishDeletes(deps);
  const expiredUploads = await expireUploads(deps);
  const orphanBlobs = await sweepOrphanBlobs(deps, options.graceMs);
  const links = await expireLinks(deps);
  const report = {
    finishedDeletes,
    expiredUploads,
    orphanBlobs,
    expiredLinks: links.ended,
    removedLinks: links.removed,
    purgedAccounts: accounts.purged,
    freedNames: accounts.freedNames,
    expiredTrash,
    expiredVersions,
  };
  if (Object.values(report).some((count) => count > 0)) deps.logger.info('files sweep', report);
  return report;
}

/** Needs no quota: an orphan blob was never counted in anyone's. */
export async function sweepOrphanBlobs(deps: Omit<FilesPorts, 'quota'>, graceMs: number): Promise<number> {
  const cutoff = deps.clock() - graceMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    const named = await deps.store.namedBlobKeys(batch);
    const orphans = batch.filter((key) => !named.has(key));
    await deleteBlobs(deps, orphans);
    removed += orphans.length;
    batch = [];
  };
  for await (const key of deps.blobs.list(PART_KEY_PREFIX)) {
    const madeAt = partKeyTime(key);
    if (madeAt === null || (graceMs > 0 && madeAt > cutoff)) continue;
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return removed;
}
