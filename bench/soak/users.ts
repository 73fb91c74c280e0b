/** The simulated users and what each one knows of its own files, folders, shares and links. */
import type { ApiFolder, ApiSession } from '../../e2e/support/files.ts';

export interface SoakFile {
  id: string;
  key: Uint8Array;
  nonce: Uint8Array;
  seed: number;
  size: number;
  parentId: string;
  large: boolean;
}

export interface SoakUser {
  index: number;
  session: ApiSession;
  root: ApiFolder;
  folders: ApiFolder[];
  files: SoakFile[];
  socket: WebSocket | undefined;
  events: number;
  shared: Set<string>;
  links: Array<{ linkId: string; fileId: string }>;
}

/** Every user of the run (a share picks its recipient here). */
export const users: SoakUser[] = [];
