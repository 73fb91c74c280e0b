/**
 * What a browser route does with an item action (docs/product.md "Input rules"): folders open,
 * files open in the previewer (cycling over the folder's files as shown), downloads stream,
 * everything else opens its dialog. One place for every mode of the file browser, each in its
 * browse scope.
 */
import { toast } from '@sealbox/ui';
import type { BrowseScope } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import { usePreviewer } from '../preview/index.ts';
import { chooseFile, downloadItems, uploadNewVersion } from '../transfers/index.ts';
import { displayName } from './format.ts';
import type { DialogState } from './ItemDialogs.tsx';
import type { ItemAction } from './ItemMenu.tsx';
import { opensAt, type BulkAction } from './item-rules.ts';

export const DOWNLOAD_FAILED_TEXT = 'Error downloading file/folder. Please try again.';

export function useItemActions({
  shown,
  go,
  openDialog,
  scope,
  onRemoveShare,
  onBlockSharer,
  onRestore,
}: {
  /** The folder's items in the order shown (what the previewer cycles over). */
  shown: readonly ItemView[];
  /** Opens a folder. */
  go: (id: string) => void;
  openDialog: (dialog: DialogState) => void;
  /** Where the items are browsed (their keys are that ring's; a link's calls carry its id). */
  scope: BrowseScope;
  /** /shared: 'Remove from my list'. */
  onRemoveShare?: ((item: ItemView) => void) | undefined;
  /** /shared: 'Block sharer'. */
  onBlockSharer?: ((item: ItemView) => void) | undefined;
  /** /trash: put items back. */
  onRestore?: ((items: ItemView[]) => void) | undefined;
}) {
  const preview = usePreviewer(shown, scope);
  const openItem = (item: ItemView) => {
    // In the trash nothing opens: it is hidden everywhere until restored.
    if (!opensAt(item)) return;
    if (item.isDirectory) go(item.id);
    else preview.open(item);
  };
  const download = (items: ItemView[]) => downloadItems(items, scope).catch(() => toast(DOWNLOAD_FAILED_TEXT, 'error'));
  const onAction = (action: ItemAction, item: ItemView) => {
    if (action === 'open' || action === 'preview') openItem(item);
    else if (action === 'download') void download([item]);
    else if (action === 'unshare') onRemoveShare?.(item);
    else if (action === 'block') onBlockSharer?.(item);
    else if (action === 'restore') onRestore?.([item]);
    // Its progress shows in the transfers panel like any upload's.
    else if (action === 'new-version')
      chooseFile((file) => uploadNewVersion(file, { id: item.id, name: displayName(item), parentId: item.parentId }, scope));
    else openDialog({ kind: action, item });
  };
  /** A selection: one zip of them all (streamed by the download service worker), or one dialog. */
  const onSelection = (action: BulkAction, items: ItemView[]) => {
    if (action === 'download') void download(items);
    else if (action === 'restore') onRestore?.(items);
    else if (items.length === 1) onAction(action, items[0]!);
    else openDialog({ kind: action === 'move' ? 'move-many' : 'delete-many', items });
  };
  return { preview, openItem, onAction, onSelection };
}
