import type { ItemRecord } from '../../ports/files.ts';
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
