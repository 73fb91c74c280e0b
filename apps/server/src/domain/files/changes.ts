import type { FilesTransaction, ItemRecord, PartRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { access, canEdit, notFound, visibleItem, type Principal, type Role } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { itemEvent, quotaChanged } from './events.ts';
import { deleteBlobs } from './storage.ts';
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
async function lockedItem(deps: FilesDeps, tx: FilesTransaction, principal: Principal, id: string): Promise<{ item: ItemRecord; role: Role }> {
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
    const { item, role } = await lockedItem(deps, tx, principal, id);
    const renamed: ItemRecord = { ...item, encryptedFileName: encryptedName, nameNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { encryptedFileName: encryptedName, nameNonce, modifiedAt: renamed.modifiedAt });
    tx.publish(itemEvent('item.renamed', renamed));
    return toItemView(renamed, role);
  });
}

/**
 * SPEC 5 "Move": the target is a folder with the same owner, not the item itself, not one of
 * its descendants and not the current parent; the top level only for the owner. The client
 * re-wrapped the item's key for the new parent; the new encryptedKey and keyNonce replace the old.
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
    const { item, role } = await lockedItem(deps, tx, principal, id);
    if (parentId === item.parentId) throw invalid('The item is already in that folder');
    if (parentId === item.id) throw invalid('An item cannot be moved into itself');
    if (parentId === null) {
      if (role !== 'owner') throw new DomainError('FORBIDDEN', 'Only the owner may move an item to the top level');
    } else {
      const target = await tx.item(parentId);
      const targetRole = target ? await access(tx, principal, target) : null;
      if (!target || targetRole === null) throw notFound('Target folder');
      if (!target.isDirectory) throw invalid('The target is a file, not a folder');
      if (!canEdit(targetRole)) throw new DomainError('FORBIDDEN', 'You do not have permission to move items there');
      if (target.ownerId !== item.ownerId) throw new DomainError('FORBIDDEN', 'Items can only move within their owner\'s files');
      if ((await tx.ancestors(target)).some((a) => a.id === item.id)) {
        throw invalid('A folder cannot be moved into one of its own subfolders');
      }
    }
    const moved: ItemRecord = { ...item, parentId, encryptedKey, keyNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { parentId, encryptedKey, keyNonce, modifiedAt: moved.modifiedAt });
    // Both folders' listings changed.
    tx.publish(itemEvent('item.moved', moved, item.parentId));
    tx.publish(itemEvent('item.moved', moved, parentId));
    return toItemView(moved, role);
  });
}

/**
 * DELETE /api/file/{id}: the item and, for a folder, everything under it (unfinished uploads
 * included). Rows go in one transaction and the owner's bytes are freed with them; the blobs
 * are removed after the commit (a crash in between leaves orphans for the start-up sweep).
 */
export async function deleteItem(deps: FilesDeps, principal: Principal, id: string): Promise<void> {
  uuid(id, 'id');
  await deps.store.transaction(async (tx) => {
    const { item } = await lockedItem(deps, tx, principal, id);
    const levels: ItemRecord[][] = [[item]];
    // Each item is taken once, so even a cycle in the data could not keep this loop going.
    const seen = new Set([item.id]);
    for (;;) {
      const folders = levels.at(-1)!.filter((i) => i.isDirectory).map((i) => i.id);
      if (folders.length === 0) break;
      const children = (await tx.children(folders)).filter((child) => !seen.has(child.id));
      if (children.length === 0) break;
      for (const child of children) seen.add(child.id);
      levels.push(children);
    }
    const all = levels.flat();
    const parts = await tx.deleteParts(all.map((i) => i.id));
    const uploads = await tx.deleteUploads(all.map((i) => i.id));
    // Deepest first, so no row's parent is gone before it.
    for (const level of [...levels].reverse()) await tx.deleteItems(level.map((i) => i.id));

    const ownerOf = new Map(all.map((i) => [i.id, i.ownerId]));
    const freed = new Map<string, { used: number; reserved: number }>();
    const entry = (owner: string) => freed.get(owner) ?? freed.set(owner, { used: 0, reserved: 0 }).get(owner)!;
    for (const part of parts) entry(ownerOf.get(part.itemId)!).used += part.size;
    for (const upload of uploads) entry(ownerOf.get(upload.itemId)!).reserved += upload.reservedRemaining;
    for (const [owner, space] of freed) {
      await tx.adjustSpace(owner, { used: -space.used, reserved: -space.reserved });
      tx.publish(quotaChanged(owner));
    }
    tx.publish(itemEvent('item.deleted', item));
    tx.afterCommit(() => deleteBlobs(deps, parts.map((p: PartRecord) => p.blobKey)));
  });
}
