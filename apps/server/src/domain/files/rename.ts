import type { ItemRecord } from '../../ports/files.ts';
import type { Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { lockedItem } from './editable.ts';
import { itemEvent } from './events.ts';
import { toItemView, type ItemView } from './view.ts';

/** PUT /api/file/{id} type rename: the client sealed the new name under the item's own key. */
export async function renameItem(deps: FilesDeps, principal: Principal, id: string, encryptedName: string, nameNonce: string): Promise<ItemView> {
  return deps.store.transaction(async (tx) => {
    const { item, role } = await lockedItem(tx, principal, id);
    const renamed: ItemRecord = { ...item, encryptedFileName: encryptedName, nameNonce, modifiedAt: deps.clock() };
    await tx.updateItem(id, { encryptedFileName: encryptedName, nameNonce, modifiedAt: renamed.modifiedAt });
    tx.publish(itemEvent('item.renamed', renamed));
    return toItemView(renamed, role);
  });
}
