/**
 * What a browser route does with an item action (SPEC 5): folders open, files open in the
 * previewer (cycling over the folder's files as shown), downloads stream, everything else opens
 * its dialog. One place for /files, /shared and /share; `linkId` for a link's holders.
 */
import { toast } from '@sealbox/ui';
import type { DialogState, ItemAction, ItemView } from '../features/files/index.ts';
import { usePreviewer } from '../features/preview/index.ts';
import { downloadItems } from '../features/transfers/index.ts';

export const DOWNLOAD_FAILED_TEXT = 'Error downloading file/folder. Please try again.';

export function useItemActions({
  shown,
  go,
  openDialog,
  linkId,
  onRemoveShare,
}: {
  /** The folder's items in the order shown (what the previewer cycles over). */
  shown: readonly ItemView[];
  /** Opens a folder. */
  go: (id: string) => void;
  openDialog: (dialog: DialogState) => void;
  linkId?: string | undefined;
  /** /shared: 'Remove from my list'. */
  onRemoveShare?: ((item: ItemView) => void) | undefined;
}) {
  const preview = usePreviewer(shown, linkId ? { linkId } : {});
  const openItem = (item: ItemView) => {
    if (item.isDirectory) go(item.id);
    else preview.open(item);
  };
  const onAction = (action: ItemAction, item: ItemView) => {
    if (action === 'open' || action === 'preview') openItem(item);
    else if (action === 'download')
      downloadItems([item], linkId ? { linkId } : {}).catch(() => toast(DOWNLOAD_FAILED_TEXT, 'error'));
    else if (action === 'unshare') onRemoveShare?.(item);
    else openDialog({ kind: action, item });
  };
  return { preview, openItem, onAction };
}
