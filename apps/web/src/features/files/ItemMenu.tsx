import { Menu, MenuItem, MenuSeparator } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import { displayName } from './format.ts';
import { Icon } from './icons.tsx';
import { itemBlocks, useItemRules } from './item-rules.ts';
import './buttons.css';

export { NO_EDIT_TEXT, NO_KEY_TEXT, NOT_OWNER_SHARE_TEXT } from './item-rules.ts';

export type ItemAction = 'open' | 'preview' | 'rename' | 'delete' | 'move' | 'info' | 'download' | 'share' | 'unshare' | 'block';

export interface ItemMenuProps {
  item: ItemView;
  myUserId: string | undefined;
  onAction: (action: ItemAction, item: ItemView) => void;
  /** Why Download is unavailable, if it is. */
  downloadBlocked?: string | undefined;
  /** -1 keeps the button out of the Tab order (the listing's roving tabindex). */
  tabIndex?: number;
}

export function ItemMenu({ item, myUserId, onAction, downloadBlocked, tabIndex }: ItemMenuProps) {
  const rules = useItemRules();
  const blocked = itemBlocks(item, rules, myUserId, downloadBlocked);
  return (
    <Menu
      label={`Actions for ${displayName(item)}`}
      trigger={
        <button
          type="button"
          className="icon-button"
          aria-label={`Actions for ${displayName(item)}`}
          tabIndex={tabIndex}
          data-item-menu
        >
          {Icon.more(18)}
        </button>
      }
    >
      {item.isDirectory ? (
        <MenuItem icon={Icon.open(16)} onSelect={() => onAction('open', item)}>
          Open
        </MenuItem>
      ) : (
        <MenuItem
          icon={Icon.eye(16)}
          disabled={!!blocked.preview}
          hint={blocked.preview}
          onSelect={() => onAction('preview', item)}
        >
          Preview
        </MenuItem>
      )}
      <MenuItem
        icon={Icon.download(16)}
        disabled={!!blocked.download}
        hint={blocked.download}
        onSelect={() => onAction('download', item)}
      >
        Download
      </MenuItem>
      <MenuItem icon={Icon.share(16)} disabled={!!blocked.share} hint={blocked.share} onSelect={() => onAction('share', item)}>
        Share
      </MenuItem>
      <MenuSeparator />
      <MenuItem
        icon={Icon.pencil(16)}
        disabled={!!blocked.rename}
        hint={blocked.rename}
        onSelect={() => onAction('rename', item)}
      >
        Rename
      </MenuItem>
      <MenuItem icon={Icon.move(16)} disabled={!!blocked.move} hint={blocked.move} onSelect={() => onAction('move', item)}>
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
      {rules.blockable?.(item) && (
        <MenuItem icon={Icon.block(16)} onSelect={() => onAction('block', item)}>
          Block sharer
        </MenuItem>
      )}
      <MenuItem
        icon={Icon.trash(16)}
        danger
        disabled={!!blocked.delete}
        hint={blocked.delete}
        onSelect={() => onAction('delete', item)}
      >
        Delete
      </MenuItem>
    </Menu>
  );
}
