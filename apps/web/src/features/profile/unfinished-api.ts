/**
 * The unfinished uploads in the signed-in user's tree (docs/protocol.md "Uploads by others"):
 * GET /api/uploads, opened with the user's own keys in the crypto worker, and ending one.
 */
import type { UnfinishedUploadEntry } from '@sealbox/rules';
import { cryptoWorker } from '../../crypto/client.ts';
import { api, errorMessageOf } from '../../lib/api.ts';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';

export interface UnfinishedUpload extends UnfinishedUploadEntry {
  /** The item, opened: its name where the user's keys open it (they always should: it is their tree). */
  item: ItemView;
  /** The folders from the top level down to the item's parent, opened ([] at the top level). */
  path: ItemView[];
  /** Share of the ciphertext received so far, 0-1. */
  received: number;
}

export interface UnfinishedUploads {
  uploads: UnfinishedUpload[];
  /** Usernames by id: who started them. */
  users: Record<string, string>;
  /** All unfinished uploads in the tree, shown or not. */
  total: number;
}

/** The newest `limit` unfinished uploads in the user's tree, whoever started them. */
export async function fetchUnfinishedUploads(limit: number): Promise<UnfinishedUploads> {
  const { data, error, status } = await api.api.uploads.get({ query: { limit } });
  if (error || !data) throw new HttpStatusError(status, errorMessageOf(error) ?? 'Could not load your unfinished uploads.');
  // The folders above come first, so each item's key unwraps under its parent's (own ring, from the root key).
  const opened = await cryptoWorker.call('openItems', OWN_SCOPE, [...data.folders, ...data.uploads.map((u) => u.item)]);
  const byId = new Map(opened.map((view) => [view.id, view]));
  const pathTo = (parentId: string | null): ItemView[] => {
    const path: ItemView[] = [];
    for (let id = parentId; id !== null && path.length <= 64; ) {
      const folder = byId.get(id);
      if (!folder) break;
      path.unshift(folder);
      id = folder.parentId;
    }
    return path;
  };
  const users: Record<string, string> = {};
  for (const user of data.users) users[user.id] = user.username;
  return {
    uploads: data.uploads.map((upload) => {
      const item = byId.get(upload.item.id)!;
      return {
        uploadId: upload.uploadId,
        item,
        path: pathTo(item.parentId),
        received: item.cipherSize > 0 ? Math.min(1, upload.received / item.cipherSize) : 0,
        linkId: upload.linkId,
        startedAt: upload.startedAt,
        lastActivityAt: upload.lastActivityAt,
        expiresAt: upload.expiresAt,
      };
    }),
    users,
    total: data.total,
  };
}

/** Ends an upload in the user's tree; one already gone (finished, ended, expired) counts as ended. */
export async function abortUnfinishedUpload(uploadId: string): Promise<void> {
  const { error, status } = await api.api.upload({ uploadId }).delete();
  if (error && status !== 404) throw new HttpStatusError(status, errorMessageOf(error) ?? 'Could not abort the upload.');
}
