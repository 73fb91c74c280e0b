import { DomainError, type DomainErrorCode } from '../errors.ts';
import type { Principal } from './access.ts';
import { changeItem } from './changes.ts';
import type { FilesDeps } from './deps.ts';
import { deleteOrTrash } from './trash.ts';

/**
 * Changes to many items in one call (docs/protocol.md "Batch changes"): a selection of thousands
 * is one request instead of one per item. Each item goes through the very call a single change
 * makes (the one access check, its own transaction, its own events), so an item is changed
 * whole or not at all, and one refused item leaves the others changed; the answer says which.
 */

/**
 * The most items one call names. A move's entry (id, wrapped key, nonce) is about 150 bytes of
 * JSON, so 5,000 stay under the 1 MiB body limit; larger selections go in several calls.
 */
export const BATCH_MAX = 5000;

export type BatchResult = { id: string; ok: true } | { id: string; ok: false; error: DomainErrorCode; message: string };

export interface BatchMove {
  id: string;
  encryptedKey: string;
  keyNonce: string;
}

/** Each entry once, at most BATCH_MAX: a repeat is a mistake of the caller, refused as a whole. */
function checkEntries(ids: readonly string[]): void {
  if (ids.length === 0) throw new DomainError('VALIDATION', 'Name at least one item');
  if (ids.length > BATCH_MAX) throw new DomainError('VALIDATION', `At most ${BATCH_MAX} items in one call`);
  if (new Set(ids).size !== ids.length) throw new DomainError('VALIDATION', 'Each item at most once in one call');
}

/**
 * Runs `act` for each entry in order, one at a time (the owner's lock is taken per item, so
 * other users' calls interleave). A refusal is that item's answer; anything else (the database
 * gone) ends the call, with the items before it changed as the answer would have said.
 */
async function eachEntry<T extends { id: string }>(
  entries: readonly T[],
  act: (entry: T) => Promise<unknown>,
): Promise<BatchResult[]> {
  checkEntries(entries.map((entry) => entry.id));
  const results: BatchResult[] = [];
  for (const entry of entries) {
    try {
      await act(entry);
      results.push({ id: entry.id, ok: true });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'INTERNAL' || error.code === 'UNAVAILABLE') throw error;
      results.push({ id: entry.id, ok: false, error: error.code, message: error.message });
    }
  }
  return results;
}

/** POST /api/file/batch/delete: each item as DELETE /api/file/{id} (to its owner's trash, or for good). */
export function deleteBatch(deps: FilesDeps, principal: Principal, ids: readonly string[]): Promise<BatchResult[]> {
  return eachEntry(
    ids.map((id) => ({ id })),
    ({ id }) => deleteOrTrash(deps, principal, id),
  );
}

/** POST /api/file/batch/move: each item into `parentId` as PUT /api/file/{id} type move, K wrapped for it. */
export function moveBatch(
  deps: FilesDeps,
  principal: Principal,
  parentId: string | null,
  items: readonly BatchMove[],
): Promise<BatchResult[]> {
  return eachEntry(items, (item) =>
    changeItem(deps, principal, item.id, { type: 'move', parentId, encryptedKey: item.encryptedKey, keyNonce: item.keyNonce }),
  );
}
