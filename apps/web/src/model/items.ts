/**
 * Items as the page and the workers both know them (docs/protocol.md "Items"): the server's
 * form, the decrypted view the UI shows, and what the crypto worker hands back for a listing or
 * a new folder. Types only: no keys, no I/O.
 */
import type { ItemView as ServerItemView } from '@sealbox/server/files-view';

/** The server form of an item (docs/protocol.md "Files and uploads", `Item`): the server's own type. */
export type ServerItem = ServerItemView;

/** An item as the UI shows it: decrypted where its key opened, never any key material. */
export interface ItemView {
  id: string;
  /** Null when the key or the name did not decrypt. */
  name: string | null;
  mimeType: string | null;
  /** Lower-case extension of the name without the dot ('' for folders and names without one). */
  extension: string;
  isDirectory: boolean;
  parentId: string | null;
  /** Plaintext bytes (folders 0). */
  size: number;
  cipherSize: number;
  createdAt: number;
  modifiedAt: number;
  ownerId: string;
  /** Null: an anonymous link holder made it (model/uploader.ts). */
  uploaderId: string | null;
  editPermission: boolean;
  decrypted: boolean;
  /**
   * Opened under a share grant that did not verify (docs/protocol.md): warn, and never upload into
   * it.
   */
  untrusted?: true;
  /** One of the user's own items that is shared with someone or by a live link (the server says so in their listings only). */
  shared?: true;
  /** In the owner's trash (docs/web-files.md "Trash"): when, by whom, and the path it was deleted from. */
  trashed?: TrashedFacts;
}

export interface TrashedFacts {
  at: number;
  /** Who deleted it (null: an anonymous link holder). */
  by: string | null;
  /** Where it was, decrypted: "My Files / Photos". */
  from: string;
  /** That folder (or one above it) is itself in the trash: a restore goes to the top of My Files. */
  folderGone: boolean;
}

/** Folder creation metadata for POST /api/upload (docs/protocol.md). */
export interface NewFolderMetadata {
  id: string;
  parentId: string | null;
  isDirectory: true;
  encryptedFileName: string;
  nameNonce: string;
  encryptedKey: string;
  keyNonce: string;
}

/** What GET /api/file answers, opened: the same shape with views instead of server items. */
export interface OpenedListing {
  root: ItemView | null;
  files: ItemView[];
  ancestors: ItemView[];
  users: Array<{ id: string; username: string; avatarExtension: string | null }>;
}
