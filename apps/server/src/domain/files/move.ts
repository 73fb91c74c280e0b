import type { ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, canEdit, notFound, type Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { lockedItem } from './editable.ts';
import { audienceOf, itemEvent, mergeAudiences } from './events.ts';
import { checkDepth, MAX_TREE_DEPTH } from './limits.ts';
import { invalid } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

/**
 * SPEC 5 "Move": the target is a folder with the same owner, not the item itself, not one of
 * its descendants and not the current parent; the top level only for the owner; and the moved
 * subtree must still end within MAX_TREE_DEPTH. The client re-wrapped the item's key for the
 * new parent; the new encryptedKey and keyNonce replace the old.
 */
export async function moveItem(
  deps: FilesDeps,
  principal: Principal,
  id: string,
  parentId: string | null,
  encryptedKey: string,
  keyNonce: string,
): Promise<ItemView> {
  return deps.store.transaction(async (tx) => {
    const { item, role, ancestors } = await lockedItem(tx, principal, id);
    let newAncestors: ItemRecord[] = [];
    if (parentId === item.parentId) throw invalid('The item is already in that folder');
    if (parentId === item.id) throw invalid('An item cannot be moved into itself');
    if (parentId === null) {
      if (role !== 'owner') throw new DomainError('FORBIDDEN', 'Only the owner may move an item to the top level');
    } else {
      const target = await tx.item(parentId);
      const path = target ? await accessPath(tx, principal, target) : null;
      if (!target || path === null) throw notFound('Target folder');
      if (!target.isDirectory) throw invalid('The target is a file, not a folder');
      if (!canEdit(path.role)) throw new DomainError('FORBIDDEN', 'You do not have permission to move items there');
      if (target.ownerId !== item.ownerId) throw new DomainError('FORBIDDEN', "Items can only move within their owner's files");
      if (path.ancestors.some((a) => a.id === item.id)) throw invalid('A folder cannot be moved into one of its own subfolders');
      // The item lands one level below the target, and its subtree's deepest item with it.
      const targetLevel = path.ancestors.length + 1;
      checkDepth(targetLevel + 1);
      if (item.isDirectory) checkDepth(targetLevel + (await tx.subtreeHeight(item.id, MAX_TREE_DEPTH - targetLevel)));
      newAncestors = [target, ...path.ancestors];
    }
    const moved: ItemRecord = { ...item, parentId, encryptedKey, keyNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { parentId, encryptedKey, keyNonce, modifiedAt: moved.modifiedAt });
    // Both folders' listings changed; whoever could see it before or can now hears of both.
    const audience = mergeAudiences(await audienceOf(tx, item, ancestors), await audienceOf(tx, moved, newAncestors));
    tx.publish(itemEvent('item.moved', moved, audience, item.parentId));
    tx.publish(itemEvent('item.moved', moved, audience, parentId));
    return toItemView(moved, role);
  });
}
