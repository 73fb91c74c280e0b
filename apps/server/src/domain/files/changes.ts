import type { Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { moveItem } from './move.ts';
import { renameItem } from './rename.ts';
import { nonce, sealedName, uuid, wrappedKey } from './validation.ts';
import type { ItemView } from './view.ts';

export type ChangeRequest =
  | { type: 'rename'; encryptedName: string; nameNonce: string }
  | { type: 'move'; parentId: string | null; encryptedKey: string; keyNonce: string };

/** PUT /api/file/{id}. */
export async function changeItem(deps: FilesDeps, principal: Principal, id: string, change: ChangeRequest): Promise<ItemView> {
  uuid(id, 'id');
  if (change.type === 'rename') {
    sealedName(change.encryptedName, 'encryptedName');
    nonce(change.nameNonce, 'nameNonce');
    return renameItem(deps, principal, id, change.encryptedName, change.nameNonce);
  }
  checkMove(id, change);
  return moveItem(deps, principal, id, change.parentId, change.encryptedKey, change.keyNonce);
}

/** The shape of a move of item `id` (400 for a malformed one), before anything is read. */
export function checkMove(id: string, change: { parentId: string | null; encryptedKey: string; keyNonce: string }): void {
  uuid(id, 'id');
  if (change.parentId !== null) uuid(change.parentId, 'parentId');
  wrappedKey(change.encryptedKey, 'encryptedKey');
  nonce(change.keyNonce, 'keyNonce');
}
