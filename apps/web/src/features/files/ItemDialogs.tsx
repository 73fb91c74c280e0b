/**
 * The dialogs of the file browser (docs/product.md "Input rules"): create folder, rename, delete,
 * move and info, each wired to its change.
 */
import { useState } from 'react';
import { onlineManager } from '@tanstack/react-query';
import type { ItemView } from '../../model/items.ts';
import { useTrashSummary } from '../trash/index.ts';
import { CreateFolderDialog, DeleteDialog, InfoDialog, MoveDialog, RenameDialog, deleteFate } from './dialogs.tsx';
import { useCreateFolder, useDeleteItem, useDeleteItems, useMoveItem, useMoveItems, useRenameItem } from './mutations.ts';
import { DeleteSelectionDialog } from './SelectionDialogs.tsx';
import { useBrowseScope } from './scope-context.ts';

/**
 * Which dialog is open; 'upload' is the transfers feature's and 'share' the sharing feature's,
 * each opened by the route beside these.
 */
export type DialogState =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'rename' | 'delete' | 'move' | 'info' | 'share'; item: ItemView }
  /** A selection of several items (the selection bar, the keyboard). */
  | { kind: 'move-many' | 'delete-many'; items: ItemView[] }
  | { kind: 'upload' };

export function useDialogState() {
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  return { dialog, open: setDialog, close: () => setDialog({ kind: 'none' }) };
}

export interface ItemDialogsProps {
  dialog: DialogState;
  onClose: () => void;
  /** Where a new folder goes. */
  parentId: string | null;
  /** The open folder's items, all pages (a new folder's name must differ from theirs). */
  openItems: readonly ItemView[] | undefined;
  /**
   * Only the open folder's first items are in (docs/web-files.md "Opening a large folder"): a
   * name cannot be checked against all of them yet, so New Folder and Rename wait.
   */
  opening?: boolean;
  /** Items elsewhere the user may rename (search results), by their parentId: the tree's. */
  knownItems?: readonly ItemView[] | undefined;
  users: Record<string, string>;
  myUserId: string | undefined;
  locationOf: (item: ItemView) => string;
  /**
   * Where moves stay when it is not My Files: a link's item (`rootId` null) or, in /shared, the
   * shared folder shown. Every change is made in the screen's browse scope (its context).
   */
  moveRoot?: { rootId: string | null; rootLabel: string } | undefined;
}

export function ItemDialogs({
  dialog,
  onClose,
  parentId,
  openItems = [],
  opening = false,
  knownItems = [],
  users,
  myUserId,
  locationOf,
  moveRoot,
}: ItemDialogsProps) {
  const scope = useBrowseScope();
  const createFolder = useCreateFolder(scope);
  const renameItem = useRenameItem(scope);
  const moveItem = useMoveItem(scope);
  const deleteItem = useDeleteItem(scope);
  const moveItems = useMoveItems(scope);
  const deleteItems = useDeleteItems(scope);
  // Whether a delete goes to a trash, and for how long: the server's retention, with the trash
  // list (a visitor without an account is told the plain, worst case: deleted for good).
  const retentionDays = useTrashSummary({ enabled: myUserId !== undefined }).data?.retentionDays;
  const fateOf = (items: readonly ItemView[]) => deleteFate(items, myUserId, retentionDays);
  // Offline the change waits for the network (listed by PendingChanges): the dialog closes now
  // rather than sit busy, so the user sees the change is queued.
  const closeIfQueued = () => {
    if (!onlineManager.isOnline()) onClose();
  };
  switch (dialog.kind) {
    case 'create':
      return (
        <CreateFolderDialog
          open
          onClose={onClose}
          busy={(createFolder.isPending && !createFolder.isPaused) || opening}
          siblings={openItems}
          onCreate={(name) => {
            createFolder.mutate({ parentId, name }, { onSuccess: onClose });
            closeIfQueued();
          }}
        />
      );
    case 'rename':
      return (
        <RenameDialog
          open
          item={dialog.item}
          onClose={onClose}
          busy={(renameItem.isPending && !renameItem.isPaused) || opening}
          siblings={[...openItems, ...knownItems]}
          onRename={(name) => {
            renameItem.mutate({ item: dialog.item, name }, { onSuccess: onClose });
            closeIfQueued();
          }}
        />
      );
    case 'delete':
      return (
        <DeleteDialog
          open
          item={dialog.item}
          fate={fateOf([dialog.item])}
          onClose={onClose}
          busy={deleteItem.isPending && !deleteItem.isPaused}
          onDelete={() => {
            deleteItem.mutate(dialog.item, { onSuccess: onClose });
            closeIfQueued();
          }}
        />
      );
    case 'move':
      return (
        <MoveDialog
          open
          items={[dialog.item]}
          myUserId={myUserId}
          moveRoot={moveRoot}
          onClose={onClose}
          busy={moveItem.isPending && !moveItem.isPaused}
          onMove={(target, label) => {
            moveItem.mutate({ item: dialog.item, parentId: target, label }, { onSuccess: onClose });
            closeIfQueued();
          }}
        />
      );
    case 'move-many':
      return (
        <MoveDialog
          open
          items={dialog.items}
          myUserId={myUserId}
          moveRoot={moveRoot}
          onClose={onClose}
          busy={moveItems.isPending && !moveItems.isPaused}
          onMove={(target, label) => {
            moveItems.mutate({ items: dialog.items, parentId: target, label }, { onSuccess: onClose });
            closeIfQueued();
          }}
        />
      );
    case 'delete-many':
      return (
        <DeleteSelectionDialog
          open
          items={dialog.items}
          fate={fateOf(dialog.items)}
          onClose={onClose}
          busy={deleteItems.isPending && !deleteItems.isPaused}
          onDelete={() => {
            deleteItems.mutate({ items: dialog.items }, { onSuccess: onClose });
            closeIfQueued();
          }}
        />
      );
    case 'info':
      return (
        <InfoDialog
          open
          // The listing's copy: new content or a restored version changes its size and dates.
          item={openItems.find((item) => item.id === dialog.item.id) ?? dialog.item}
          users={users}
          myUserId={myUserId}
          location={locationOf(dialog.item)}
          onClose={onClose}
        />
      );
    default:
      return null;
  }
}
