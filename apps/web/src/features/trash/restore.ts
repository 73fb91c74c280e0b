/**
 * Restoring from the trash (docs/web-files.md "Trash"). Each item goes back to the folder it was
 * deleted from, or to the top level of My Files when that folder is gone or itself in the trash
 * (the server says so; the key is then wrapped again under the root key). Only the browser reads
 * names, so before each call it compares the item's name with the folder it goes to and asks,
 * as an upload does, when the name is taken: keep both (a numbered name) or skip.
 */
import type { QueryClient } from '@tanstack/react-query';
import { isNoAccess, HttpStatusError } from '../../lib/http-status-error.ts';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import { folderQueryOptions, freeName, nameKey, renameItem } from '../items/index.ts';
import { askDuplicate } from '../transfers/index.ts';
import { restoreFromTrash } from './api.ts';

export interface RestoreOutcome {
  restored: number;
  /** Put at the top level of My Files: their folder was gone. */
  toTop: number;
  /** Left in the trash at the user's word (a name already used). */
  skipped: number;
  failed: number;
}

/** The names in folder `parentId` (null: the top level); null when that folder cannot be opened. */
async function namesIn(queryClient: QueryClient, parentId: string | null): Promise<string[] | null> {
  try {
    const listing = await queryClient.fetchQuery({ ...folderQueryOptions(OWN_SCOPE, parentId), staleTime: 0 });
    return listing.items.flatMap((item) => (item.name === null ? [] : [item.name]));
  } catch (error) {
    if (parentId !== null && isNoAccess(error)) return null;
    throw error;
  }
}

/** A folder restored in the same batch first: the items that were in it can then go back into it. */
function parentsFirst(items: readonly ItemView[]): ItemView[] {
  const ids = new Set(items.map((item) => item.id));
  return [...items].sort(
    (a, b) => Number(a.parentId !== null && ids.has(a.parentId)) - Number(b.parentId !== null && ids.has(b.parentId)),
  );
}

export async function restoreItems(items: readonly ItemView[], queryClient: QueryClient): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { restored: 0, toTop: 0, skipped: 0, failed: 0 };
  const taken = new Map<string | null, string[]>();
  let always: 'keep' | 'skip' | undefined;
  const ordered = parentsFirst(items);
  for (const [index, item] of ordered.entries()) {
    try {
      // A folder in the trash is not asked for (it would only answer 404).
      let target = item.trashed?.folderGone ? null : item.parentId;
      let names = taken.get(target) ?? (await namesIn(queryClient, target));
      if (names === null) {
        target = null;
        names = taken.get(null) ?? (await namesIn(queryClient, null)) ?? [];
      }
      taken.set(target, names);
      const name = item.name;
      let newName: string | undefined;
      if (name !== null && names.some((other) => nameKey(other) === nameKey(name))) {
        let choice = always;
        if (!choice) {
          const answer = await askDuplicate({
            name,
            canReplace: false,
            isDirectory: item.isDirectory,
            remaining: ordered.length - index,
            action: 'restore',
          });
          choice = answer.choice === 'skip' ? 'skip' : 'keep';
          if (answer.all) always = choice;
        }
        if (choice === 'skip') {
          outcome.skipped++;
          continue;
        }
        newName = freeName(name, names);
      }
      const toTop = target === null && item.parentId !== null;
      try {
        await restoreFromTrash(item.id, toTop);
      } catch (error) {
        // Its folder went to the trash since the check: to the top level, then.
        if (toTop || !(error instanceof HttpStatusError && error.status === 409)) throw error;
        await restoreFromTrash(item.id, true);
        outcome.toTop++;
      }
      if (toTop) outcome.toTop++;
      if (newName !== undefined) await renameItem(OWN_SCOPE, item.id, newName);
      names.push(newName ?? name ?? '');
      outcome.restored++;
    } catch {
      outcome.failed++;
    }
  }
  return outcome;
}
