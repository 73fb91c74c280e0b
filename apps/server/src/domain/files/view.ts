import type { ItemRecord } from '../../ports/files.ts';
import { canEdit, type Role } from './access.ts';

/** The server form of an item (docs/protocol.md "Files and uploads", `Item`). */
export interface ItemView {
  id: string;
  parentId: string | null;
  isDirectory: boolean;
  encryptedFileName: string;
  nameNonce: string;
  encryptedMimeType: string | null;
  mimeTypeNonce: string | null;
  encryptedKey: string;
  keyNonce: string | null;
  fileNonce: string | null;
  size: number;
  createdAt: number;
  modifiedAt: number;
  ownerId: string;
  uploaderId: string;
  /** Whether the caller may rename, move, delete and create inside it. */
  editPermission: boolean;
  /** Ids of the ready children; present on the listed folder (`root`) only. */
  children?: string[];
}

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
