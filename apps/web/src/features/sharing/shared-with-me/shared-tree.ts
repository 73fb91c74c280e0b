/**
 * docs/product.md "Screens" search on /shared: what is shared with the signed-in user, and
 * everything below each shared folder (GET /api/file?id={folder}&depth=20 each, opened in the
 * crypto worker with the keys the shared list's grants put there). Never the user's own tree.
 */
import { fetchSubtree, type FolderListing } from '../../items/index.ts';
import { ENCRYPTED_DIRECTORY, displayName } from '../../../model/item-names.ts';
import type { ItemView } from '../../../model/items.ts';
import type { SharedListing } from './shared-api.ts';

/**
 * The shared items first, then each subtree's folder and descendants, each id once (the first
 * view of it wins: a shared item also found inside another shared folder keeps its own grant's
 * view). Parent links are the server's, untouched: a shared item's parent is its owner's folder.
 */
export function mergeSharedTree(shared: SharedListing | undefined, subtrees: readonly FolderListing[]): FolderListing {
  const byId = new Map<string, ItemView>();
  const users: Record<string, string> = { ...shared?.users };
  const add = (item: ItemView | null) => {
    if (item && !byId.has(item.id)) byId.set(item.id, item);
  };
  for (const item of shared?.items ?? []) add(item);
  for (const subtree of subtrees) {
    add(subtree.folder);
    for (const item of subtree.items) add(item);
    for (const [id, name] of Object.entries(subtree.users)) users[id] ??= name;
  }
  return { folder: null, items: [...byId.values()], ancestors: [], users };
}

/**
 * Every shared folder's subtree (ids sorted into the key, so a new or revoked share asks again).
 * A folder refused meanwhile (revoked between the list and this) is left out rather than failing
 * the whole search; all refused is an error.
 */
export async function fetchSharedSubtrees(folderIds: readonly string[]): Promise<FolderListing[]> {
  const settled = await Promise.allSettled(folderIds.map((id) => fetchSubtree(id)));
  const got = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (got.length === 0 && failed) throw failed.reason;
  return got;
}

/** The shared folders' ids in a stable order (the query key). */
export function sharedFolderIds(shared: SharedListing | undefined): string[] {
  return (shared?.items ?? [])
    .filter((item) => item.isDirectory)
    .map((item) => item.id)
    .sort();
}

/**
 * "Files Shared with Me / Project / Drafts": where a result of the shared tree lives, down from
 * the shared item that holds it (a shared item's own parent is its owner's, never shown).
 */
export function sharedLocationIn(tree: FolderListing | undefined, sharedIds: ReadonlySet<string>, rootLabel: string) {
  const byId = new Map((tree?.items ?? []).map((item) => [item.id, item]));
  return (item: ItemView): string => {
    const parts: string[] = [];
    let at = sharedIds.has(item.id) ? null : item.parentId;
    while (at && parts.length < 25) {
      const parent = byId.get(at);
      parts.unshift(parent ? displayName(parent) : ENCRYPTED_DIRECTORY);
      if (!parent || sharedIds.has(parent.id)) break;
      at = parent.parentId;
    }
    return [rootLabel, ...parts].join(' / ');
  };
}

/**
 * Where 'Jump to Folder' goes for a result whose parent is `parentId`: that folder when it is in
 * the shared tree, else the top list (a shared item itself: its parent is the owner's folder).
 */
export function sharedJumpTarget(tree: FolderListing | undefined, parentId: string | null): string | null {
  if (parentId === null) return null;
  return tree?.items.some((item) => item.id === parentId && item.isDirectory) ? parentId : null;
}
