import { NOT_OWNER_SHARE_TEXT, SHARE_WITH_SELF_TEXT, USER_NOT_FOUND_TEXT } from '@sealbox/rules';
import type { AccessRecord, FilesReader, FilesTransaction, ItemRecord, PublicUser } from '../../ports/files.ts';
import { DomainError, isDomainError } from '../errors.ts';
import { visibleItem } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { shareEvent } from './events.ts';
import { endUploadsWithoutAccess } from './unfinished.ts';
import { base64Exact, invalid, RSA_WRAPPED_KEY_BYTES, SIGNATURE_BYTES, uuid } from './validation.ts';
import type { ItemView } from './view.ts';

/**
 * Sharing with named users (docs/product.md "Roles"; docs/protocol.md "HTTP endpoints" and
 * "Sharing"). Only the owner shares: an access entry holds K wrapped to the recipient's RSA key and
 * the sharer's signature over the grant, which the server stores but cannot make (it has no private
 * key) and the recipient verifies. The entry gives the recipient its role on the item and below it
 * (access.ts).
 */

/** One access entry as its owner and its recipient see it. */
export interface AccessView {
  type: 'user';
  itemId: string;
  userId: string;
  editPermission: boolean;
  /** K under the recipient's RSA-OAEP key. */
  encryptedKey: string;
  /** The sharer's signature over the grant (docs/protocol.md "Sharing with a user"). */
  signature: string;
  sharerId: string;
  createdAt: number;
}

/** An item shared with the caller, with the grant to verify and unwrap its key from. */
export type SharedItemView = ItemView & { grant: AccessView };

export interface ShareUserInput {
  id: string;
  userId: string;
  encryptedKey: string;
  edit: boolean;
  signature: string;
}

export interface ChangeUserShareInput {
  fileId: string;
  userId: string;
  edit: boolean;
  signature: string;
}

export function toAccessView(entry: AccessRecord, ownerId: string): AccessView {
  return {
    type: 'user',
    itemId: entry.itemId,
    userId: entry.userId,
    editPermission: entry.edit,
    encryptedKey: entry.encryptedKey,
    signature: entry.signature,
    sharerId: entry.sharerId ?? ownerId,
    createdAt: entry.createdAt,
  };
}

function checkEdit(value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid('edit must be a boolean');
  return value;
}

/** The item, when the caller owns it: NOT_FOUND if they cannot see it, FORBIDDEN if not theirs. */
export async function ownedItem(reader: FilesReader, ownerId: string, id: string): Promise<ItemRecord> {
  const { item, role } = await visibleItem(reader, { kind: 'user', userId: ownerId }, id);
  if (role !== 'owner') throw new DomainError('FORBIDDEN', NOT_OWNER_SHARE_TEXT);
  return item;
}

const shareNotFound = () => new DomainError('NOT_FOUND', 'Share not found');

/** `ownedItem`, read again under the owner's lock (the lock every change of their space takes). */
async function lockedOwnItem(tx: FilesTransaction, callerId: string, itemId: string): Promise<ItemRecord> {
  await ownedItem(tx, callerId, itemId);
  await tx.lockOwner(callerId);
  return ownedItem(tx, callerId, itemId);
}

/** POST /api/share type user. 409 if the recipient has an entry on this item already. */
export async function shareWithUser(deps: FilesDeps, callerId: string, input: ShareUserInput): Promise<AccessView> {
  const itemId = uuid(input.id, 'id');
  const userId = uuid(input.userId, 'userId');
  const encryptedKey = base64Exact(input.encryptedKey, 'encryptedKey', RSA_WRAPPED_KEY_BYTES);
  const signature = base64Exact(input.signature, 'signature', SIGNATURE_BYTES);
  const edit = checkEdit(input.edit);
  if (userId === callerId) throw invalid(SHARE_WITH_SELF_TEXT);
  await deps.limiter.hit('shareAccount', callerId);
  try {
    return await deps.store.transaction(async (tx) => {
      const item = await lockedOwnItem(tx, callerId, itemId);
      if ((await tx.publicUsers([userId])).length === 0) throw new DomainError('NOT_FOUND', USER_NOT_FOUND_TEXT);
      const entry: AccessRecord = { itemId, userId, encryptedKey, signature, edit, sharerId: callerId, createdAt: deps.clock() };
      await tx.insertAccess(entry);
      tx.publish(shareEvent('share.created', item, entry, await tx.blockersAmong(item.ownerId, [userId])));
      return toAccessView(entry, item.ownerId);
    });
  } catch (error) {
    if (isDomainError(error, 'CONFLICT')) throw new DomainError('CONFLICT', 'This item is already shared with this user');
    throw error;
  }
}

/**
 * PUT /api/share type user: switches viewer/editor. The grant signs the edit flag, so the new
 * signature comes with it (over the same wrapped key). Switched to viewer, the uploads the user
 * can no longer finish end at once (unfinished.ts).
 */
export async function changeUserShare(deps: FilesDeps, callerId: string, input: ChangeUserShareInput): Promise<AccessView> {
  const itemId = uuid(input.fileId, 'fileId');
  const userId = uuid(input.userId, 'userId');
  const signature = base64Exact(input.signature, 'signature', SIGNATURE_BYTES);
  const edit = checkEdit(input.edit);
  await deps.limiter.hit('shareAccount', callerId);
  return deps.store.transaction(async (tx) => {
    const item = await lockedOwnItem(tx, callerId, itemId);
    const [entry] = await tx.accessesFor(userId, [itemId]);
    if (!entry || !(await tx.updateAccess(itemId, userId, { edit, signature }))) throw shareNotFound();
    if (!edit) await endUploadsWithoutAccess(deps, tx, userId, item.ownerId);
    const changed: AccessRecord = { ...entry, edit, signature };
    tx.publish(shareEvent('share.changed', item, changed, await tx.blockersAmong(item.ownerId, [userId])));
    return toAccessView(changed, item.ownerId);
  });
}

/**
 * DELETE /api/shared type user: the owner revokes anyone's entry on their item; a recipient may
 * drop their own entry from their list (whatever else they can see). Anyone else: 404 when they
 * cannot see the item, 403 when they can. The uploads the user can no longer finish end at once.
 */
export async function removeUserShare(
  deps: FilesDeps,
  callerId: string,
  input: { fileId: string; userId: string },
): Promise<void> {
  const itemId = uuid(input.fileId, 'fileId');
  const userId = uuid(input.userId, 'userId');
  await deps.store.transaction(async (tx) => {
    const item = await tx.item(itemId);
    if (!item) throw shareNotFound();
    if (userId !== callerId) await ownedItem(tx, callerId, itemId);
    await tx.lockOwner(item.ownerId);
    const [entry] = await tx.accessesFor(userId, [itemId]);
    if (!entry || !(await tx.deleteAccess(itemId, userId))) throw shareNotFound();
    await endUploadsWithoutAccess(deps, tx, userId, item.ownerId);
    tx.publish(shareEvent('share.deleted', item, entry, await tx.blockersAmong(item.ownerId, [userId])));
  });
}

/** GET /api/shared/{fileId}/users: the owner's view of who has an entry on the item. */
export async function accessList(
  deps: FilesDeps,
  callerId: string,
  fileId: string,
): Promise<{ access: AccessView[]; users: PublicUser[] }> {
  const item = await ownedItem(deps.store, callerId, uuid(fileId, 'fileId'));
  const entries = await deps.store.accessesOn([item.id]);
  return {
    access: entries.map((entry) => toAccessView(entry, item.ownerId)),
    users: await deps.store.publicUsers(entries.map((entry) => entry.userId)),
  };
}
