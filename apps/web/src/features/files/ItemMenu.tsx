import { Menu, MenuItem, MenuSeparator } from '@sealbox/ui';
import type { ItemView } from './api.ts';
import { displayName } from './format.ts';
import { Icon } from './icons.tsx';
import { useItemRules } from './item-rules.ts';

export type ItemAction = 'open' | 'preview' | 'rename' | 'delete' | 'move' | 'info' | 'download' | 'share' | 'unshare';

/** SPEC 6 tooltips. */
export const NO_EDIT_TEXT = 'You do not have permission to rename/move/delete this file';
export const NOT_OWNER_SHARE_TEXT = 'You cannot share files you do not own';
export const NO_KEY_TEXT = 'This item could not be decrypted';

export interface ItemMenuProps {
  item: ItemView;
  myUserId: string | undefined;
  onAction: (action: ItemAction, item: ItemView) => void;
  /** Why Download is unavailable, if it is. */
  downloadBlocked?: string | undefined;
}

export function ItemMenu({ item, myUserId, onAction, downloadBlocked }: ItemMenuProps) {
  const noEdit = item.editPermission ? undefined : NO_EDIT_TEXT;
  const noKey = item.decrypted ? undefined : NO_KEY_TEXT;
  const rules = useItemRules();
  const noMove = noEdit ?? noKey ?? rules.moveBlocked?.(item);
  // SPEC 6: only the owner shares, and only an item whose key this browser holds.
  const shareHint = myUserId === undefined || item.ownerId !== myUserId ? NOT_OWNER_SHARE_TEXT : noKey;
  return (
    <Menu
      label={`Actions for ${displayName(item)}`}
      trigger={
        <button type="button" className="icon-button" aria-label={`Actions for ${displayName(item)}`}>
          {Icon.more(18)}
        </button>
      }
    >
      {item.isDirectory ? (
        <MenuItem icon={Icon.open(16)} onSelect={() => onAction('open', item)}>
          Open
        </MenuItem>
      ) : (
        <MenuItem icon={Icon.eye(16)} disabled={!item.decrypted} hint={noKey} onSelect={() => onAction('preview', item)}>
          Preview
        </MenuItem>
      )}
      <MenuItem
        icon={Icon.download(16)}
        disabled={downloadBlocked !== undefined || !item.decrypted}
        hint={downloadBlocked ?? noKey}
        onSelect={() => onAction('download', item)}
      >
        Download
      </MenuItem>
      <MenuItem
        icon={Icon.share(16)}
        disabled={shareHint !== undefined}
        hint={shareHint}
        onSelect={() => onAction('share', item)}
      >
        Share
      </MenuItem>
      <MenuSeparator />
      <MenuItem
        icon={Icon.pencil(16)}
        disabled={!!(noEdit ?? noKey)}
        hint={noEdit ?? noKey}
        onSelect={() => onAction('rename', item)}
      >
        Rename
      </MenuItem>
      <MenuItem icon={Icon.move(16)} disabled={!!noMove} hint={noMove} onSelect={() => onAction('move', item)}>
        Move
      </MenuItem>
      <MenuItem icon={Icon.info(16)} onSelect={() => onAction('info', item)}>
        Info
      </MenuItem>
      <MenuSeparator />
      {rules.removable?.(item) && (
        <MenuItem icon={Icon.close(16)} onSelect={() => onAction('unshare', item)}>
          Remove from my list
        </MenuItem>
      )}
      <MenuItem icon={Icon.trash(16)} danger disabled={!!noEdit} hint={noEdit} onSelect={() => onAction('delete', item)}>
        Delete
      </MenuItem>
    </Menu>
  );
}
