/**
 * The trash (docs/web-files.md "Trash"): what the user deleted, until it is restored, deleted for
 * good, or the server's retention runs out. A mode of the one file browser: the same list, grid,
 * selection, search and keyboard, with Restore and Delete forever as the only actions (rules
 * `trashed`), the place each item was deleted from and when, and Empty trash in the header.
 * Folders in the trash do not open: everything in them is hidden until they are restored.
 */
import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { OWN_SCOPE } from '../../../model/browse-scope.ts';
import type { ItemView } from '../../../model/items.ts';
import { PROFILE_QUERY_KEY } from '../../auth/index.ts';
import type { FolderListing } from '../../items/index.ts';
import { useLiveStatus } from '../../live/index.ts';
import {
  MY_FILES_LABEL,
  emptyTrash,
  restoreItems,
  trashKeys,
  trashQueryOptions,
  useTrash,
  type RestoreOutcome,
  type TrashListing,
} from '../../trash/index.ts';
import type { BrowserMode } from '../browser-mode.ts';
import { treeSource } from '../browser-state.ts';
import { formatBytes } from '../format.ts';
import { TRASHED_TEXT } from '../item-rules.ts';
import { itemsPhrase } from '../mutations.ts';

export const TRASH_TITLE = 'Trash';
export const TRASH_EMPTY_TEXT = 'The trash is empty';
const TRASH_RULES = { trashed: true };

function asListing(trash: TrashListing): FolderListing {
  return { folder: null, items: trash.items, ancestors: [], users: trash.users };
}

/** The toast of a restore: what went back, what went to My Files instead, what was left or failed. */
export function restoreText(outcome: RestoreOutcome, items: readonly ItemView[]): { text: string; ok: boolean } {
  const { restored, toTop, skipped, failed } = outcome;
  const parts = [restored === items.length ? `Restored ${itemsPhrase(items)}` : `Restored ${restored} of ${items.length} items`];
  if (toTop > 0) parts.push(`${toTop === 1 ? '1 item' : `${toTop} items`} went to ${MY_FILES_LABEL}: the folder was gone`);
  if (skipped > 0) parts.push(`${skipped} left in the trash`);
  if (failed > 0) parts.push(`${failed} failed. Please try again`);
  return { text: `${parts.join('. ')}.`, ok: failed === 0 };
}

export const trashMode: BrowserMode = {
  title: TRASH_TITLE,
  active: 'trash',
  scope: OWN_SCOPE,
  homeLabel: 'Back to My Files',
  // Nothing in the trash opens, so its URL never names a folder.
  parentParam: () => undefined,
  usePlace() {
    const queryClient = useQueryClient();
    const trash = useTrash({ poll: useLiveStatus() !== 'online' });
    const data = trash.data;
    const listing = useMemo(() => (data ? asListing(data) : undefined), [data]);
    const tree = useMemo(() => treeSource({ ...trashQueryOptions(), select: asListing }), []);
    const count = data?.items.length ?? 0;
    const days = data?.retentionDays ?? 0;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
    };
    const facts = data
      ? [
          `${count === 1 ? '1 item' : `${count} items`}, ${formatBytes(data.bytes)}`,
          days > 0 ? `Deleted for good after ${days} days` : 'Deleted items are not kept on this server',
        ]
      : [];
    return {
      listing: { ...trash, data: listing },
      about: { label: 'About the trash', facts },
      crumbs: [{ id: null, label: TRASH_TITLE }],
      rights: { uploadBlocked: TRASHED_TEXT, newFolderBlocked: TRASHED_TEXT },
      target: null,
      folderName: TRASH_TITLE,
      tree,
      locationOf: () => (item) => item.trashed?.from ?? MY_FILES_LABEL,
      // A search result is in the trash itself: there is no folder to jump to.
      jumpTarget: () => null,
      refresh,
      emptyText: days > 0 ? `${TRASH_EMPTY_TEXT}. Deleted items stay here for ${days} days.` : TRASH_EMPTY_TEXT,
      itemRules: TRASH_RULES,
      knownItems: [],
      share: false,
      action: {
        label: 'Empty trash',
        blocked: count === 0 ? 'The trash is empty' : undefined,
        confirm: {
          title: 'Empty the trash?',
          description: `${count === 1 ? 'The item' : `All ${count} items`} in the trash will be deleted permanently, with everything inside them. This cannot be undone.`,
          confirmLabel: 'Empty trash',
        },
        run: async () => {
          try {
            const emptied = await emptyTrash();
            toast(`Emptied the trash: ${emptied === 1 ? '1 item' : `${emptied} items`} deleted for good`, 'success');
          } catch {
            toast('Error emptying the trash. Please try again.', 'error');
          }
          refresh();
        },
      },
      onRestore: (items) => {
        void restoreItems(items, queryClient).then((outcome) => {
          const { text, ok } = restoreText(outcome, items);
          if (outcome.restored + outcome.failed > 0) toast(text, ok ? 'success' : 'error');
          refresh();
        });
      },
    };
  },
};
