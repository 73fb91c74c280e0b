import type { FilesTransaction, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, canEdit, notFound, visibleItem, type Principal, type Role } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { itemEvent } from './events.ts';
import { checkDepth, MAX_TREE_DEPTH } from './limits.ts';
import { invalid, nonce, sealedName, uuid, wrappedKey } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

export type ChangeRequest =
  | { type: 'rename'; encryptedName: string; nameNonce: string }
  | { type: 'move'; parentId: string | null; encryptedKey: string; keyNonce: string };

const noEditRight = () => new DomainError('FORBIDDEN', 'You do not have permission to rename/move/delete this file');

/**
 * Reads the item and locks its owner's row, then reads it again under the lock: every change
 * to one owner's tree (and quota) happens one at a time, so two moves cannot make a cycle.
 */
export async function lockedItem(tx: FilesTransaction, principal: Principal, id: string): Promise<{ item: ItemRecord; role: Role }> {
  const first = await visibleItem(tx, principal, id);
  await tx.lockOwner(first.item.ownerId);
  const found = await visibleItem(tx, principal, id);
  if (!canEdit(found.role)) throw noEditRight();
  return found;
}

/** PUT /api/file/{id}. */
export async function changeItem(deps: FilesDeps, principal: Principal, id: string, change: ChangeRequest): Promise<ItemView> {
  uuid(id, 'id');
  if (change.type === 'rename') {
    sealedName(change.encryptedName, 'encryptedName');
    nonce(change.nameNonce, 'nameNonce');
    return renameItem(deps, principal, id, change.encryptedName, change.nameNonce);
  }
  if (change.parentId !== null) uuid(change.parentId, 'parentId');
  wrappedKey(change.encryptedKey, 'encryptedKey');
  nonce(change.keyNonce, 'keyNonce');
  return moveItem(deps, principal, id, change.parentId, change.encryptedKey, change.keyNonce);
}

async function renameItem(deps: FilesDeps, principal: Principal, id: string, encryptedName: string, nameNonce: string): Promise<ItemView> {
  return deps.store.transaction(async (tx) => {
    const { item, role } = await lockedItem(tx, principal, id);
    const renamed: ItemRecord = { ...item, encryptedFileName: encryptedName, nameNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { encryptedFileName: encryptedName, nameNonce, modifiedAt: renamed.modifiedAt });
    tx.publish(itemEvent('item.renamed', renamed));
    return toItemView(renamed, role);
  });
}

/**
 * SPEC 5 "Move": the target is a folder with the same owner, not the item itself, not one of
 * its descendants and not the current parent; the top level only for the owner; and the moved
 * subtree must still end within MAX_TREE_DEPTH. The client re-wrapped the item's key for the
 * new parent; the new encryptedKey and keyNonce replace the old.
 */
async function moveItem(
  deps: FilesDeps,
  principal: Principal,
  id: string,
  parentId: string | null,
  encryptedKey: string,
  keyNonce: string,
): Promise<ItemView> {
  return deps.store.transaction(async (tx) => {
    const { item, role } = await lockedItem(tx, principal, id);
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
      if (target.ownerId !== item.ownerId) throw new DomainError('FORBIDDEN', 'Items can only move within their owner\'s files');
      if (path.ancestors.some((a) => a.id === item.id)) throw invalid('A folder cannot be moved into one of its own subfolders');
      // The item lands one level below the target, and its subtree's deepest item with it.
      const targetLevel = path.ancestors.length + 1;
      checkDepth(targetLevel + 1);
      if (item.isDirectory) checkDepth(targetLevel + (await tx.subtreeHeight(item.id, MAX_TREE_DEPTH - targetLevel)));
    }
    const moved: ItemRecord = { ...item, parentId, encryptedKey, keyNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { parentId, encryptedKey, keyNonce, modifiedAt: moved.modifiedAt });
    // Both folders' listings changed.
    tx.publish(itemEvent('item.moved', moved, item.parentId));
    tx.publish(itemEvent('item.moved', moved, parentId));
    return toItemView(moved, role);
  });
}
