import type { FilesReader, FilesTransaction, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, canEdit, type Principal } from './access.ts';
import { removeItems } from './deletion.ts';
import type { FilesDeps, FilesPorts } from './deps.ts';

/**
 * Unfinished uploads that others start in an owner's tree (docs/protocol.md "Uploads by others").
 * Each holds the owner's space and counts as one of the owner's items while the owner sees
 * nothing of it in the tree, so what one link or one other user may hold at once is capped, and
 * an upload ends with the access it was started through: a link deleted, switched to viewer or
 * expired, a user's access entry revoked or switched to viewer.
 */

export const LINK_CAP_MESSAGE =
  'Uploads through this link that are not finished already hold all the space a link may; finish or cancel one first';
export const UPLOADER_CAP_MESSAGE =
  "Your unfinished uploads in this user's files already hold all the space allowed; finish or cancel one first";

/**
 * Room for a new upload of `bytes` from this principal in `ownerId`'s tree: through a link, within
 * the link's cap; by a signed-in user other than the owner, within theirs (QUOTA_EXCEEDED past
 * either). Counts the whole size of each unfinished upload, so sending most of a file and never
 * finishing it holds as much as sending nothing. Exact under the owner's lock.
 */
export async function checkUnfinishedRoom(
  deps: FilesDeps,
  reader: FilesReader,
  principal: Principal,
  ownerId: string,
  bytes: number,
): Promise<void> {
  const { perLink, perUploader } = deps.maxUnfinishedBytes;
  if (principal.kind === 'link' && (await reader.unfinishedBytes({ linkId: principal.linkId })) + bytes > perLink) {
    throw new DomainError('QUOTA_EXCEEDED', LINK_CAP_MESSAGE);
  }
  const uploaderId = principal.userId;
  if (uploaderId === null || uploaderId === ownerId) return;
  if ((await reader.unfinishedBytes({ uploaderId, ownerId })) + bytes > perUploader) {
    throw new DomainError('QUOTA_EXCEEDED', UPLOADER_CAP_MESSAGE);
  }
}

/**
 * Ends every unfinished upload started through this link, whoever started it: their items,
 * parts and reserved space go at once, and any later part is refused as an unknown upload.
 * The caller holds the owner's lock.
 */
export async function endLinkUploads(deps: FilesPorts, tx: FilesTransaction, linkId: string): Promise<void> {
  const uploads = await tx.uploadsVia(linkId);
  if (uploads.length > 0) await removeItems(deps, tx, await tx.items(uploads.map((upload) => upload.itemId)));
}

/**
 * Ends the unfinished uploads a user started in an owner's tree (without a link) where they may
 * no longer write: after their access entry went or became a viewer's. Another entry that still
 * lets them edit there keeps an upload going. The caller holds the owner's lock.
 */
export async function endUploadsWithoutAccess(
  deps: FilesPorts,
  tx: FilesTransaction,
  userId: string,
  ownerId: string,
): Promise<void> {
  if (userId === ownerId) return;
  const principal: Principal = { kind: 'user', userId };
  const ended: ItemRecord[] = [];
  for (const upload of await tx.uploadsBy(userId, ownerId)) {
    const item = await tx.item(upload.itemId);
    const parent = item?.parentId ? await tx.item(item.parentId) : undefined;
    const path = parent ? await accessPath(tx, principal, parent) : null;
    if (item && !canEdit(path?.role ?? null)) ended.push(item);
  }
  if (ended.length > 0) await removeItems(deps, tx, ended);
}
