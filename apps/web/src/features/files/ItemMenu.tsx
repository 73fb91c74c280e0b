import { Fragment, type ReactNode } from 'react';
import { Menu, MenuItem, MenuSeparator } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import { displayName } from './format.ts';
import { Icon } from './icons.tsx';
import { itemBlocks, leftOut, useItemRules } from './item-rules.ts';
import './buttons.css';

export { NO_EDIT_TEXT, NO_KEY_TEXT, NOT_OWNER_SHARE_TEXT } from './item-rules.ts';

export type ItemAction =
  | 'open'
  | 'preview'
  | 'rename'
  | 'delete'
  | 'move'
  | 'info'
  | 'download'
  | 'share'
  | 'unshare'
  | 'block'
  | 'restore'
  | 'new-version';

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
  /** One action, greyed with its reason when refused, or left out where the rules say so. */
  const action = (name: keyof typeof blocked, icon: ReactNode, label: string, danger = false) =>
    leftOut(rules, blocked[name]) ? null : (
      <MenuItem
        key={name}
        icon={icon}
        danger={danger}
        disabled={!!blocked[name]}
        hint={blocked[name]}
        onSelect={() => onAction(name === 'newVersion' ? 'new-version' : name, item)}
      >
        {label}
      </MenuItem>
    );
  const info = (
    <MenuItem key="info" icon={Icon.info(16)} onSelect={() => onAction('info', item)}>
      Info
    </MenuItem>
  );
  const groups = (
    rules.trashed
      ? [[action('restore', Icon.restore(16), 'Restore'), info], [action('delete', Icon.trash(16), 'Delete forever', true)]]
      : [
          [
            item.isDirectory ? (
              <MenuItem key="open" icon={Icon.open(16)} onSelect={() => onAction('open', item)}>
                Open
              </MenuItem>
            ) : (
              action('preview', Icon.eye(16), 'Preview')
            ),
            action('download', Icon.download(16), 'Download'),
            action('share', Icon.share(16), 'Share'),
          ],
          [
            action('rename', Icon.pencil(16), 'Rename'),
            action('move', Icon.move(16), 'Move'),
            !item.isDirectory && action('newVersion', Icon.upload(16), 'Upload new version'),
            info,
          ],
          [
            rules.removable?.(item) && (
              <MenuItem key="unshare" icon={Icon.close(16)} onSelect={() => onAction('unshare', item)}>
                Remove from my list
              </MenuItem>
            ),
            rules.blockable?.(item) && (
              <MenuItem key="block" icon={Icon.block(16)} onSelect={() => onAction('block', item)}>
                Block sharer
              </MenuItem>
            ),
            action('delete', Icon.trash(16), 'Delete', true),
          ],
        ]
  )
    .map((group) => group.filter(Boolean))
    .filter((group) => group.length > 0);
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
      {groups.map((group, index) => (
        <Fragment key={String(index)}>
          {index > 0 && <MenuSeparator />}
          {group}
        </Fragment>
      ))}
    </Menu>
  );
}
