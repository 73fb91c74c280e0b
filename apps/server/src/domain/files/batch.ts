import type { FilesTransaction } from '../../ports/files.ts';
import { DomainError, type DomainErrorCode } from '../errors.ts';
import type { Principal } from './access.ts';
import { checkMove } from './changes.ts';
import type { FilesDeps } from './deps.ts';
import { inOneEventBatch } from './event-batch.ts';
import { moveIn, newMoveMemo, type MoveMemo } from './move.ts';
import { deleteOrTrash, trashIn } from './trash.ts';
import { uuid } from './validation.ts';

/**
 * Changes to many items in one call (docs/protocol.md "Batch changes"): a selection of thousands
 * is one request instead of one per item. Each item goes through the code a single change runs
 * (the one access check, every check before its one write), so an item is changed whole or not
 * at all, and one refused item leaves the others changed; the answer says which. Items share a
 * transaction by the hundred: a commit per item would be most of the time. Their live events go
 * out as one batch when the call is done (event-batch.ts), not one per item.
 */

/**
 * The most items one call names. A move's entry (id, wrapped key, nonce) is about 150 bytes of
 * JSON, so 5,000 stay under the 1 MiB body limit; larger selections go in several calls.
 */
export const BATCH_MAX = 5000;

/** Items per transaction: long enough to spare the commits, short enough that others' writes wait little. */
const CHUNK = 100;

export type BatchResult = { id: string; ok: true } | { id: string; ok: false; error: DomainErrorCode; message: string };

export interface BatchMove {
  id: string;
  encryptedKey: string;
  keyNonce: string;
}

/**
 * Refusals our own checks make before any write. Others (a conflict the database reports) may
 * come from a statement that failed, which spoils the transaction it ran in.
 */
const CHECKED: ReadonlySet<DomainErrorCode> = new Set(['VALIDATION', 'FORBIDDEN', 'NOT_FOUND', 'QUOTA_EXCEEDED', 'TOO_LARGE']);

/** Each entry once, at most BATCH_MAX: a repeat is a mistake of the caller, refused as a whole. */
function checkEntries(ids: readonly string[]): void {
  if (ids.length === 0) throw new DomainError('VALIDATION', 'Name at least one item');
  if (ids.length > BATCH_MAX) throw new DomainError('VALIDATION', `At most ${BATCH_MAX} items in one call`);
  if (new Set(ids).size !== ids.length) throw new DomainError('VALIDATION', 'Each item at most once in one call');
}

const refused = (id: string, error: DomainError): BatchResult => ({ id, ok: false, error: error.code, message: error.message });

/** A chunk's transaction given up for one item's unchecked refusal: the chunk runs again item by item. */
class ChunkSpoiled extends Error {}

/**
 * Runs `act` for each entry in order, CHUNK at a time in one transaction. A checked refusal is
 * that item's answer; an unchecked one undoes the chunk, which then runs one transaction per
 * item (`single`); anything else (the database gone) ends the call, with the chunks before it
 * changed as the answer would have said.
 */
async function inChunks<T extends { id: string }, M>(
  deps: FilesDeps,
  entries: readonly T[],
  newMemo: () => M,
  act: (tx: FilesTransaction, entry: T, memo: M) => Promise<unknown>,
  single: (entry: T) => Promise<unknown>,
): Promise<BatchResult[]> {
  checkEntries(entries.map((entry) => entry.id));
  const results: BatchResult[] = [];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    try {
      results.push(
        ...(await deps.store.transaction(async (tx) => {
          // What this transaction read and locked: valid only inside it.
          const memo = newMemo();
          const done: BatchResult[] = [];
          for (const entry of chunk) {
            try {
              await act(tx, entry, memo);
              done.push({ id: entry.id, ok: true });
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              if (!CHECKED.has(error.code)) throw new ChunkSpoiled();
              done.push(refused(entry.id, error));
            }
          }
          return done;
        })),
      );
    } catch (error) {
      if (!(error instanceof ChunkSpoiled)) throw error;
      for (const entry of chunk) results.push(await alone(entry, single));
    }
  }
  return results;
}

async function oneByOne<T extends { id: string }>(entries: readonly T[], single: (entry: T) => Promise<unknown>) {
  checkEntries(entries.map((entry) => entry.id));
  const results: BatchResult[] = [];
  for (const entry of entries) results.push(await alone(entry, single));
  return results;
}

async function alone<T extends { id: string }>(entry: T, single: (entry: T) => Promise<unknown>): Promise<BatchResult> {
  try {
    await single(entry);
    return { id: entry.id, ok: true };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code === 'INTERNAL' || error.code === 'UNAVAILABLE') throw error;
    return refused(entry.id, error);
  }
}

/** POST /api/file/batch/delete: each item as DELETE /api/file/{id} (to its owner's trash, or for good). */
export function deleteBatch(deps: FilesDeps, principal: Principal, ids: readonly string[]): Promise<BatchResult[]> {
  return inOneEventBatch(deps, (deps) => {
    const entries = ids.map((id) => ({ id }));
    const single = ({ id }: { id: string }) => deleteOrTrash(deps, principal, id);
    // Without a trash a delete purges after its commit (deletion.ts): one transaction each.
    if ((deps.trashRetentionMs ?? 0) <= 0) return oneByOne(entries, single);
    return inChunks(
      deps,
      entries,
      () => new Set<string>(),
      (tx, { id }, held) => {
        uuid(id, 'id');
        return trashIn(tx, deps, principal, id, held);
      },
      single,
    );
  });
}

/** POST /api/file/batch/move: each item into `parentId` as PUT /api/file/{id} type move, K wrapped for it. */
export function moveBatch(
  deps: FilesDeps,
  principal: Principal,
  parentId: string | null,
  items: readonly BatchMove[],
): Promise<BatchResult[]> {
  return inOneEventBatch(deps, (deps) => {
    const move = (tx: FilesTransaction, item: BatchMove, memo?: MoveMemo) => {
      checkMove(item.id, { parentId, ...item });
      return moveIn(tx, deps, principal, item.id, parentId, item.encryptedKey, item.keyNonce, memo);
    };
    return inChunks(deps, items, newMoveMemo, move, (item) => deps.store.transaction((tx) => move(tx, item)));
  });
}
