/**
 * Changes to items (docs/product.md "States", "Input rules" and "Roles"): create a folder, rename,
 * move, delete; each invalidates exactly the listings it changed (and the profile's quota where
 * bytes went away).
 *
 * Offline, TanStack Query pauses a change until the network is back and then sends every paused
 * one at once. Each carries a key under FILES_CHANGE_KEY, so the browser can show what waits
 * (PendingChanges), and a change whose target (or the folder it goes into) a queued delete
 * removes is not sent: it would only fail once the delete lands first.
 *
 * A change that went through says so in a short success toast ('Renamed to x', 'Moved 3 items to
 * Photos', 'Deleted 2 items'); a change to a selection goes item by item and reports the ones
 * that failed in one toast.
 */
import { settleEach } from '../../lib/settle-each.ts';
import { useMutation, useQueryClient, type Mutation, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from '@sealbox/ui';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { type BrowseScope, OWN_SCOPE } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { displayName } from './format.ts';
import {
  createFolder,
  deleteItem,
  deleteItems,
  filesKeys,
  moveItem,
  moveItems,
  renameItem,
  changeKeys,
  FILES_CHANGE_KEY,
  isListingBelow,
  type BatchIds,
  type FolderListing,
} from '../items/index.ts';
import { deleteForever, restoreFromTrash, trashKeys, type TrashSummary } from '../trash/index.ts';

const MOVES: readonly string[] = [changeKeys.move[1], changeKeys.moveMany[1]];

/** Runs `onMoved` after each move that went through, of one item or of several. */
export function useAfterMove(onMoved: () => void): void {
  const queryClient = useQueryClient();
  const latest = useRef(onMoved);
  latest.current = onMoved;
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        const key = event.mutation?.options.mutationKey;
        const moved = event.type === 'updated' && event.action.type === 'success';
        if (moved && key?.[0] === FILES_CHANGE_KEY[0] && MOVES.includes(String(key[1]))) latest.current();
      }),
    [queryClient],
  );
}

/** 'notes.txt' for one item, '3 items' for several. */
export function itemsPhrase(items: readonly ItemView[]): string {
  return items.length === 1 ? displayName(items[0]!) : `${items.length} items`;
}

/** A change not sent because a delete waiting or under way removes what it acts on. */
export class SupersededChangeError extends Error {
  constructor(readonly what: string) {
    super(`${what} was not sent: it is being deleted.`);
    this.name = 'SupersededChangeError';
  }
}

/** Whether a delete that has not finished yet removes one of `ids`. */
export function deletePendingFor(queryClient: QueryClient, ids: Array<string | null>): ItemView | undefined {
  const cache = queryClient.getMutationCache();
  for (const mutation of cache.findAll({ mutationKey: changeKeys.delete, status: 'pending' })) {
    const doomed = mutation.state.variables as ItemView | undefined;
    if (doomed && ids.includes(doomed.id)) return doomed;
  }
  for (const mutation of cache.findAll({ mutationKey: changeKeys.deleteMany, status: 'pending' })) {
    const doomed = (mutation.state.variables as { items?: ItemView[] } | undefined)?.items?.find((i) => ids.includes(i.id));
    if (doomed) return doomed;
  }
  return undefined;
}

function refuseIfDeleted(queryClient: QueryClient, ids: Array<string | null>, what: string): void {
  if (deletePendingFor(queryClient, ids)) throw new SupersededChangeError(what);
}

/** The ids a change needs to still exist when it is sent (its item, where it is, where it goes). */
function targetsOf(kind: unknown, vars: unknown): Array<string | null> {
  if (kind === 'create') return [(vars as { parentId: string | null }).parentId];
  if (kind === 'rename') return [(vars as { item: ItemView }).item.id, (vars as { item: ItemView }).item.parentId];
  if (kind === 'move') {
    const { item, parentId } = vars as { item: ItemView; parentId: string | null };
    return [item.id, item.parentId, parentId];
  }
  if (kind === 'move-many') {
    const { items, parentId } = vars as { items: ItemView[]; parentId: string | null };
    return [...items.flatMap((item) => [item.id, item.parentId]), parentId];
  }
  return [];
}

/**
 * What a waiting change does, for the pending list ("Rename Notes", "Delete Archive"); one that a
 * queued delete makes pointless says it will not be sent.
 */
export function describeChange(queryClient: QueryClient, mutation: Mutation<unknown, Error, unknown, unknown>): string {
  const kind = mutation.options.mutationKey?.[1];
  const vars = mutation.state.variables;
  let text: string;
  if (kind === 'create') text = `New folder ${(vars as { name?: string })?.name ?? ''}`.trim();
  else if (kind === 'delete') return `Delete ${displayName(vars as ItemView)}`;
  else if (kind === 'delete-many') return `Delete ${itemsPhrase((vars as { items: ItemView[] }).items)}`;
  else if (kind === 'move-many') text = `Move ${itemsPhrase((vars as { items: ItemView[] }).items)}`;
  else text = `${kind === 'rename' ? 'Rename' : 'Move'} ${displayName((vars as { item: ItemView }).item)}`;
  const doomed = deletePendingFor(queryClient, targetsOf(kind, vars));
  return doomed ? `${text} (will not be sent: ${displayName(doomed)} is being deleted)` : text;
}

function superseded(error: unknown): boolean {
  if (!(error instanceof SupersededChangeError)) return false;
  toast(error.message, 'info');
  return true;
}

/**
 * The message of docs/product.md "Messages" for a failed action (permission answers get their own
 * for folders).
 */
function messageOf(error: unknown, fallback: string): string {
  return error instanceof HttpStatusError ? error.message : fallback;
}

function refreshAfterChange(queryClient: QueryClient, scope: BrowseScope, folders: Array<string | null>) {
  // Through a link: its listings are keyed by the link (the linked item's is 'root'), all refreshed.
  if (scope.kind === 'link') return queryClient.invalidateQueries({ queryKey: filesKeys.linkAll(scope.linkId) });
  const unique = [...new Set(folders)];
  return Promise.all([
    ...unique.map((id) => queryClient.invalidateQueries({ queryKey: filesKeys.folderInAnyScope(id) })),
    queryClient.invalidateQueries({ queryKey: filesKeys.tree(OWN_SCOPE), exact: true }),
  ]);
}

/** Each change is made in `scope`: its keys come from that ring, and through a link it carries `?linkId=`. */
export function useCreateFolder(scope: BrowseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: changeKeys.create,
    mutationFn: async ({ parentId, name }: { parentId: string | null; name: string }) => {
      refuseIfDeleted(queryClient, [parentId], `New folder ${name}`);
      return createFolder(scope, parentId, name);
    },
    onSuccess: (_id, { parentId }) => refreshAfterChange(queryClient, scope, [parentId]),
    onError: (error) => {
      if (superseded(error)) return;
      const status = error instanceof HttpStatusError ? error.status : 0;
      toast(status === 403 || status === 404 ? 'You cannot create folders here!' : 'Error creating folder', 'error');
    },
  });
}

export function useRenameItem(scope: BrowseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: changeKeys.rename,
    mutationFn: async ({ item, name }: { item: ItemView; name: string }) => {
      refuseIfDeleted(queryClient, [item.id, item.parentId], `Rename of ${displayName(item)}`);
      return renameItem(scope, item.id, name);
    },
    // A folder's own listing shows its name in the breadcrumbs.
    onSuccess: (_r, { item, name }) => {
      const refresh = () => refreshAfterChange(queryClient, scope, item.isDirectory ? [item.parentId, item.id] : [item.parentId]);
      const before = item.decrypted ? item.name : null;
      if (before === null || before === name) toast(`Renamed to ${name}`, 'success');
      else offerUndo(`Renamed to ${name}`, () => renameItem(scope, item.id, before), refresh, `Renamed back to ${before}`);
      return refresh();
    },
    onError: (error) => {
      if (!superseded(error)) toast(messageOf(error, 'Error renaming file. Please try again later.'), 'error');
    },
  });
}

export function useMoveItem(scope: BrowseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: changeKeys.move,
    /** `label`: the destination's name, for the success toast. */
    mutationFn: async ({ item, parentId }: { item: ItemView; parentId: string | null; label: string }) => {
      refuseIfDeleted(queryClient, [item.id, item.parentId, parentId], `Move of ${displayName(item)}`);
      return moveItem(scope, item.id, parentId);
    },
    onSuccess: (_r, { item, parentId, label }) => {
      offerUndo(
        `Moved ${displayName(item)} to ${label}`,
        () => moveItem(scope, item.id, item.parentId),
        () => refreshAfterMove(queryClient, scope, [{ ...item, parentId }], item.parentId),
        `Moved ${displayName(item)} back`,
      );
      return refreshAfterMove(queryClient, scope, [item], parentId);
    },
    onError: (error) => {
      if (!superseded(error)) toast(messageOf(error, 'Error moving file.'), 'error');
    },
  });
}

/** A delete: for good from the trash; elsewhere to its owner's trash (or for good where the server keeps none). */
function removeItem(scope: BrowseScope, item: ItemView): Promise<void> {
  return item.trashed ? deleteForever(item.id) : deleteItem(scope, item.id);
}

/**
 * Whether `items` went to the caller's own trash: then the toast says so and offers Undo (only
 * the owner restores). The server's retention comes with the trash list (fetched by the meter).
 */
function intoOwnTrash(queryClient: QueryClient, scope: BrowseScope, items: readonly ItemView[]): boolean {
  const retentionDays = queryClient.getQueryData<TrashSummary>(trashKeys.summary)?.retentionDays ?? 0;
  return scope.kind === 'own' && retentionDays > 0 && items.every((item) => !item.trashed);
}

/** The toast of a delete that went through for `done` (all of them, or `failed` left). */
function reportDelete(queryClient: QueryClient, scope: BrowseScope, outcome: BulkOutcome): void {
  const forever = outcome.done.some((item) => item.trashed);
  if (!intoOwnTrash(queryClient, scope, outcome.done)) {
    reportBulk(outcome, 'Deleted', forever ? ' forever' : '');
    return;
  }
  reportBulk(outcome, 'Moved', ' to the trash', {
    undo: () => eachItem(outcome.done, (item) => restoreFromTrash(item.id, false)),
    after: () => refreshAfterChange(queryClient, scope, [...outcome.done.map((item) => item.parentId), null]),
    undone: `Restored ${itemsPhrase(outcome.done)}`,
  });
}

export function useDeleteItem(scope: BrowseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: changeKeys.delete,
    mutationFn: (item: ItemView) => removeItem(scope, item),
    onSuccess: (_r, item) => {
      reportDelete(queryClient, scope, { done: [item], failed: [] });
      return refreshAfterDelete(queryClient, scope, [item]);
    },
    onError: (error) => toast(messageOf(error, 'Error deleting file'), 'error'),
  });
}

/**
 * Rows that went (moved away, deleted) leave the listing they were shown in at once: the refetch
 * that confirms it takes a while for a large folder (bench/batch), and until then the rows would
 * still be offered for changes that can only fail.
 */
function dropFromListings(queryClient: QueryClient, scope: BrowseScope, gone: readonly ItemView[]): void {
  const ids = new Set(gone.map((item) => item.id));
  for (const parentId of new Set(gone.map((item) => item.parentId)))
    queryClient.setQueryData<FolderListing>(filesKeys.folder(scope, parentId), (old) =>
      old ? { ...old, items: old.items.filter((item) => !ids.has(item.id)) } : old,
    );
}

async function refreshAfterMove(
  queryClient: QueryClient,
  scope: BrowseScope,
  moved: readonly ItemView[],
  parentId: string | null,
) {
  dropFromListings(queryClient, scope, moved);
  // Everything under a moved folder has a new path (breadcrumbs) and its K a new wrapping.
  const folders = new Set(moved.filter((item) => item.isDirectory).map((item) => item.id));
  await Promise.all([
    refreshAfterChange(queryClient, scope, [...moved.map((item) => item.parentId), parentId]),
    folders.size > 0 && queryClient.invalidateQueries({ predicate: (query) => isListingBelow(query, folders) }),
  ]);
}

async function refreshAfterDelete(queryClient: QueryClient, scope: BrowseScope, deleted: readonly ItemView[]) {
  dropFromListings(queryClient, scope, deleted);
  for (const item of deleted)
    if (item.isDirectory) queryClient.removeQueries({ queryKey: filesKeys.folder(scope, item.id), exact: true });
  await Promise.all([
    refreshAfterChange(
      queryClient,
      scope,
      deleted.map((item) => item.parentId),
    ),
    // The quota shown in the sidebar (usedSpace) went down, or the trash holds more.
    queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: trashKeys.all }),
  ]);
}

/** Which items of a selection a change went through for, and which it failed for. */
export interface BulkOutcome {
  done: ItemView[];
  failed: ItemView[];
}

/** A selection changed in one batch call (docs/protocol.md "Batch changes"), its answer as the selection's items. */
async function inOneCall(items: readonly ItemView[], send: (ids: string[]) => Promise<BatchIds>): Promise<BulkOutcome> {
  const ok = new Set((await send(items.map((item) => item.id))).done);
  return { done: items.filter((item) => ok.has(item.id)), failed: items.filter((item) => !ok.has(item.id)) };
}

/** Requests of a bulk change in flight at once: a large selection goes faster, the server stays calm. */
const BULK_PARALLEL = 4;

/** One request per item, a few at a time, every failure kept (in the selection's order). */
async function eachItem(items: readonly ItemView[], act: (item: ItemView) => Promise<void>): Promise<BulkOutcome> {
  const ok = await settleEach(items, BULK_PARALLEL, act);
  return { done: items.filter((_, i) => ok[i]), failed: items.filter((_, i) => !ok[i]) };
}

/**
 * A success toast with Undo (docs/web-files.md "Phone and browser conventions"): `undo` puts the
 * change back, `after` refreshes what it touched, `undone` says it was put back. Moves and
 * renames have it, and a delete into the user's own trash.
 */
function offerUndo(message: string, undo: () => Promise<unknown>, after: () => Promise<unknown>, undone: string): void {
  const run = async () => {
    try {
      await undo();
      toast(undone, 'success');
    } catch (error) {
      toast(error instanceof PartlyUndone ? error.message : messageOf(error, UNDO_FAILED_TEXT), 'error');
    }
    await after();
  };
  toast(message, 'success', { action: { label: 'Undo', run: () => void run() } });
}

export const UNDO_FAILED_TEXT = 'Could not undo that change. Please try again.';

/** An Undo of a selection that some items did not follow; its message names them. */
class PartlyUndone extends Error {}

/** One toast for a change to a selection: all went ('Deleted 2 items'), or which did not; Undo where offered. */
function reportBulk(
  { done, failed }: BulkOutcome,
  verb: string,
  where = '',
  undo?: { undo: () => Promise<BulkOutcome>; after: () => Promise<unknown>; undone: string },
): void {
  if (failed.length === 0 && undo)
    offerUndo(
      `${verb} ${itemsPhrase(done)}${where}`,
      async () => {
        const back = await undo.undo();
        if (back.failed.length > 0)
          throw new PartlyUndone(`${UNDO_FAILED_TEXT} Not moved back: ${back.failed.map(displayName).join(', ')}`);
      },
      undo.after,
      undo.undone,
    );
  else if (failed.length === 0) toast(`${verb} ${itemsPhrase(done)}${where}`, 'success');
  else
    toast(
      `${verb} ${done.length} of ${done.length + failed.length} items${where}. Failed: ${failed.map(displayName).join(', ')}`,
      'error',
    );
}

/** Moves a selection (all in one folder) into `parentId`; `label` names it in the toast. */
export function useMoveItems(scope: BrowseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: changeKeys.moveMany,
    mutationFn: async ({ items, parentId }: { items: ItemView[]; parentId: string | null; label: string }) => {
      refuseIfDeleted(queryClient, targetsOf('move-many', { items, parentId }), `Move of ${itemsPhrase(items)}`);
      return inOneCall(items, (ids) => moveItems(scope, ids, parentId));
    },
    onSuccess: (outcome, { parentId, label }) => {
      const { done } = outcome;
      // A selection comes from one folder: Undo takes back what went, to where it was.
      const from = done[0]?.parentId ?? null;
      reportBulk(outcome, 'Moved', ` to ${label}`, {
        undo: () => inOneCall(done, (ids) => moveItems(scope, ids, from)),
        after: () =>
          refreshAfterMove(
            queryClient,
            scope,
            done.map((item) => ({ ...item, parentId })),
            from,
          ),
        undone: `Moved ${itemsPhrase(done)} back`,
      });
      return refreshAfterMove(queryClient, scope, done, parentId);
    },
    onError: (error) => {
      if (!superseded(error)) toast(messageOf(error, 'Error moving file.'), 'error');
    },
  });
}

export function useDeleteItems(scope: BrowseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: changeKeys.deleteMany,
    // The trash has no batch call: its items go one by one.
    mutationFn: ({ items }: { items: ItemView[] }) =>
      items.some((item) => item.trashed)
        ? eachItem(items, (item) => removeItem(scope, item))
        : inOneCall(items, (ids) => deleteItems(scope, ids)),
    onSuccess: (outcome) => {
      reportDelete(queryClient, scope, outcome);
      return refreshAfterDelete(queryClient, scope, outcome.done);
    },
    onError: (error) => toast(messageOf(error, 'Error deleting file'), 'error'),
  });
}
