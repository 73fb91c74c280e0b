import { CHANGE_REFUSAL_TEXT, changeRefusal, type ItemChange } from '@sealbox/rules';
import type { FilesTransaction, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { canEdit, visibleItem, type AccessPath, type Principal } from './access.ts';

/**
 * Reads the item and locks its owner's row, then reads it again under the lock: every change
 * to one owner's tree (and quota) happens one at a time, so two moves cannot make a cycle.
 * FORBIDDEN unless the principal may make `change` (@sealbox/rules `changeRefusal`, the rule the
 * web app shows): an edit right, and through a link never a move or delete of the linked item.
 */
export async function lockedItem(
  tx: FilesTransaction,
  principal: Principal,
  id: string,
  change: ItemChange,
  held?: Set<string>,
): Promise<{ item: ItemRecord } & AccessPath> {
  const first = await visibleItem(tx, principal, id);
  let found = first;
  // `held`: owners this transaction (a batch's) locked already; their trees cannot change under
  // it, so what was just read was read under the lock.
  if (!held?.has(first.item.ownerId)) {
    await tx.lockOwner(first.item.ownerId);
    held?.add(first.item.ownerId);
    found = await visibleItem(tx, principal, id);
  }
  // A link holder sees the linked item and below it, so the linked item is the one whose parent they do not see.
  const linkedItem = principal.kind === 'link' && (found.ancestorRoles[0] ?? null) === null;
  const refusal = changeRefusal(change, { canEdit: canEdit(found.role), linkedItem });
  if (refusal) throw new DomainError('FORBIDDEN', CHANGE_REFUSAL_TEXT[refusal]);
  return found;
}
