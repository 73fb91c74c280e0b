import { DomainError } from '../errors.ts';
import { actorKey, type Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import type { QuotaRecord } from './quota.ts';
import { invalid } from './validation.ts';

/**
 * How far one owner's tree may grow (docs/protocol.md "Files and uploads"). Without them one
 * account could make chains thousands of folders deep or millions of rows in seconds, and every
 * other user pays for walking or deleting them on the shared database.
 */

/**
 * Levels an item may sit at, a top-level item being level 1: deeper than any real tree, and
 * well above the 20 levels a folder download lists.
 */
export const MAX_TREE_DEPTH = 64;

/** MAX_ITEMS_PER_USER unless set: far more than a person files, far fewer than a flood makes. */
export const DEFAULT_MAX_ITEMS_PER_USER = 1_000_000;

/** `level` is the deepest level a create or a move would fill. */
export function checkDepth(level: number): void {
  if (level > MAX_TREE_DEPTH) throw invalid(`Folders nest at most ${MAX_TREE_DEPTH} levels deep`);
}

/** Room for one more item of this owner; the quota read under the owner's lock, to be exact. */
export function checkItemCount(deps: FilesDeps, quota: QuotaRecord): void {
  if (quota.itemCount >= deps.maxItemsPerUser) {
    throw new DomainError('QUOTA_EXCEEDED', `Too many items: an account holds at most ${deps.maxItemsPerUser}`);
  }
}

/** Counts one item created by the principal; RATE_LIMITED (with Retry-After) past the limit. */
export function countCreation(deps: FilesDeps, principal: Principal): Promise<void> {
  return deps.limiter.hit('createItemAccount', actorKey(principal));
}
