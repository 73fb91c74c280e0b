import type { FilesReader, ItemRecord } from '../../ports/files.ts';
import { canEdit, type Role } from './access.ts';

/**
 * The server form of an item (docs/protocol.md "Files and uploads", `Item`): the record without
 * its internal state. toItemView still copies field by field, so a field added to the record
 * stays out of every answer until it is added here on purpose (the compiler asks).
 */
export type ItemView = Omit<ItemRecord, 'state'> & {
  /** Whether the caller may rename, move, delete and create inside it. */
  editPermission: boolean;
  /** Ids of the ready children; present on the listed folder (`root`) only. */
  children?: string[];
  /**
   * In the owner's own listings only: the item is shared with someone or by a link that has not
   * expired (docs/web-files.md "Sharing, clearer"). Never told to anyone else.
   */
  shared?: true;
};

export function toItemView(item: ItemRecord, role: Role, children?: string[]): ItemView {
  return {
    id: item.id,
    parentId: item.parentId,
    isDirectory: item.isDirectory,
    encryptedFileName: item.encryptedFileName,
    nameNonce: item.nameNonce,
    encryptedMimeType: item.encryptedMimeType,
    mimeTypeNonce: item.mimeTypeNonce,
    encryptedKey: item.encryptedKey,
    keyNonce: item.keyNonce,
    fileNonce: item.fileNonce,
    size: item.size,
    createdAt: item.createdAt,
    modifiedAt: item.modifiedAt,
    ownerId: item.ownerId,
    uploaderId: item.uploaderId,
    editPermission: canEdit(role),
    ...(children ? { children } : {}),
  };
}

export const dataLink = (id: string) => `/api/file/data/${id}`;

/** The users an item names: its owner and, unless an anonymous link holder made it, its uploader. */
export function peopleOf(item: Pick<ItemRecord, 'ownerId' | 'uploaderId'>): string[] {
  return item.uploaderId === null ? [item.ownerId] : [item.ownerId, item.uploaderId];
}

/**
 * Marks the views of `caller`'s own items that are shared (an access entry, or a link not yet
 * expired at `now`). Other people's items are left as they are: a recipient never learns of the
 * owner's other shares.
 */
export async function markShared(
  reader: Pick<FilesReader, 'accessesOn' | 'linksOn'>,
  callerId: string | null,
  views: readonly ItemView[],
  now: number,
): Promise<void> {
  if (callerId === null) return;
  const own = views.filter((view) => view.ownerId === callerId);
  if (own.length === 0) return;
  const ids = own.map((view) => view.id);
  const [accesses, links] = await Promise.all([reader.accessesOn(ids), reader.linksOn(ids)]);
  const shared = new Set([
    ...accesses.map((access) => access.itemId),
    ...links.filter((link) => link.expiresAt === null || link.expiresAt > now).map((link) => link.itemId),
  ]);
  for (const view of own) if (shared.has(view.id)) view.shared = true;
}
