import type { FilesTransaction, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { canEdit, visibleItem, type AccessPath, type Principal } from './access.ts';

const noEditRight = () => new DomainError('FORBIDDEN', 'You do not have permission to rename/move/delete this file');

/**
 * Reads the item and locks its owner's row, then reads it again under the lock: every change
 * to one owner's tree (and quota) happens one at a time, so two moves cannot make a cycle.
 */
export async function lockedItem(
  tx: FilesTransaction,
  principal: Principal,
  id: string,
): Promise<{ item: ItemRecord } & AccessPath> {
  const first = await visibleItem(tx, principal, id);
  await tx.lockOwner(first.item.ownerId);
  const found = await visibleItem(tx, principal, id);
  if (!canEdit(found.role)) throw noEditRight();
  return found;
}
