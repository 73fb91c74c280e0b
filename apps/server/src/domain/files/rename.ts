import type { ItemRecord } from '../../ports/files.ts';
import type { Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { lockedItem } from './editable.ts';
import { audienceOf, itemEvent } from './events.ts';
import { toItemView, type ItemView } from './view.ts';

/** PUT /api/file/{id} type rename: the client sealed the new name under the item's own key. */
export async function renameItem(
  deps: FilesDeps,
  principal: Principal,
  id: string,
  encryptedName: string,
  nameNonce: string,
): Promise<ItemView> {
  return deps.store.transaction(async (tx) => {
    const { item, role, ancestors } = await lockedItem(tx, principal, id, 'rename');
    const renamed: ItemRecord = { ...item, encryptedFileName: encryptedName, nameNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { encryptedFileName: encryptedName, nameNonce, modifiedAt: renamed.modifiedAt });
    tx.publish(itemEvent('item.renamed', renamed, await audienceOf(tx, renamed, ancestors)));
    return toItemView(renamed, role);
  });
}
