import type { ItemView } from '../model/items.ts';

/** The signed-in user of component tests: owner and uploader of what `itemView` makes. */
export const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** A decrypted, editable file of ME's; a test names only what its case is about. */
export function itemView(partial: Partial<ItemView> = {}): ItemView {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'notes.txt',
    mimeType: 'text/plain',
    extension: 'txt',
    isDirectory: false,
    parentId: null,
    size: 1,
    cipherSize: 17,
    createdAt: 1,
    modifiedAt: 1,
    ownerId: ME,
    uploaderId: ME,
    editPermission: true,
    decrypted: true,
    ...partial,
  };
}
