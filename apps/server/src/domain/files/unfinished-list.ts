import type { UnfinishedUploadEntry } from '@sealbox/rules';
import { ancestorChain, type ItemRecord, type UploadRecord, type UserSummary } from '../../ports/files.ts';
import type { FilesDeps } from './deps.ts';
import { expireUpload } from './uploads.ts';
import { invalid } from './validation.ts';
import { peopleOf, toItemView, type ItemView } from './view.ts';

/** One unfinished upload in the owner's tree, as GET /api/uploads shows it (docs/protocol.md). */
export interface UnfinishedUploadView extends UnfinishedUploadEntry {
  /** The item as its owner sees it; `uploaderId` null: an anonymous link holder started it. */
  item: ItemView;
  /** Ciphertext bytes received so far, of `item.size`. */
  received: number;
}

export interface UnfinishedUploads {
  uploads: UnfinishedUploadView[];
  /** Every folder above the items listed, each once, so the owner's browser can open their names. */
  folders: ItemView[];
  users: UserSummary[];
  /** All unfinished uploads in the tree, whatever the page. */
  total: number;
}

export const UNFINISHED_DEFAULT_LIMIT = 100;
export const UNFINISHED_MAX_LIMIT = 1000;

/**
 * GET /api/uploads: the unfinished uploads in the caller's own tree, whoever started them
 * (themselves, a user they share with, a link holder), newest first, so they can see what holds
 * their space and end it (DELETE /api/upload/{uploadId}). Expired ones are removed on the way;
 * those under a folder being deleted are left out (the delete removes them).
 */
export async function unfinishedUploads(
  deps: FilesDeps,
  ownerId: string,
  options: { limit?: number | undefined; offset?: number | undefined },
): Promise<UnfinishedUploads> {
  const limit = options.limit ?? UNFINISHED_DEFAULT_LIMIT;
  const offset = options.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > UNFINISHED_MAX_LIMIT)
    throw invalid(`limit must be 1 to ${UNFINISHED_MAX_LIMIT}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalid('offset must be a whole number');
  const page = { limit, offset };
  let rows = await deps.store.unfinishedIn(ownerId, page);
  const expired = rows.filter(({ upload }) => upload.expiresAt <= deps.clock());
  if (expired.length > 0) {
    for (const { upload } of expired) await expireUpload(deps, upload.id);
    rows = await deps.store.unfinishedIn(ownerId, page);
  }

  // Every folder above the page in one read (a few queries, however many folders the items are in).
  const known = new Map((await deps.store.ancestorsOf(rows.map(({ item }) => item))).map((folder) => [folder.id, folder]));
  const folders = new Map<string, ItemRecord>();
  const uploads: UnfinishedUploadView[] = [];
  const people = new Set<string>();
  for (const { upload, item } of rows) {
    const above = ancestorChain(item, known);
    if (above.some((folder) => folder.state !== 'ready')) continue;
    for (const folder of above) folders.set(folder.id, folder);
    for (const person of peopleOf(item)) people.add(person);
    uploads.push(viewOf(upload, item));
  }
  return {
    uploads,
    folders: [...folders.values()].map((folder) => toItemView(folder, 'owner')),
    users: await deps.store.userSummaries([...people]),
    total: await deps.store.unfinishedCount(ownerId),
  };
}

function viewOf(upload: UploadRecord, item: ItemRecord): UnfinishedUploadView {
  return {
    uploadId: upload.id,
    // A new version's parts wait under an item of their own, named and keyed as its file: shown as the file.
    item: { ...toItemView(item, 'owner'), id: upload.versionOf ?? item.id },
    // Each part moves its bytes out of the reserve once (quota.ts), so what is no longer reserved arrived.
    received: upload.size - upload.reservedRemaining,
    linkId: upload.linkId,
    startedAt: upload.createdAt,
    lastActivityAt: upload.lastActivityAt,
    expiresAt: upload.expiresAt,
  };
}
