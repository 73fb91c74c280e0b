/**
 * Above the listing while items are selected (issue 14): 'N selected' and what can be done with
 * them. An action some item does not allow is disabled with the reason as its tooltip, by the
 * same rules as each item's menu (item-rules.ts). It takes the place of the listing's head line,
 * at the same height (icons only on small screens), so the items never move under the pointer:
 * a double click that starts by selecting must land on the same item.
 */
import { Button, Tooltip } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import { Icon } from './icons.tsx';
import { selectionBlocked, useItemRules, type BulkAction } from './item-rules.ts';
import { SelectAllBox } from './ItemViews.tsx';
import type { ListingControl } from './useSelectionKeyboard.ts';

export interface SelectionBarProps {
  selected: readonly ItemView[];
  myUserId: string | undefined;
  downloadBlocked: string | undefined;
  onAction: (action: BulkAction) => void;
  onClear: () => void;
  /** For its select-all checkbox. */
  control: ListingControl;
  /** The grid has no header row, so the bar holds its select-all; the list's is in its header. */
  withSelectAll: boolean;
}

type BarAction = { action: BulkAction; label: string; icon: keyof typeof Icon };

const ACTIONS: readonly BarAction[] = [
  { action: 'move', label: 'Move', icon: 'move' },
  { action: 'download', label: 'Download', icon: 'download' },
  { action: 'delete', label: 'Delete', icon: 'trash' },
];

/** In the trash: put back, or delete for good. */
const TRASH_ACTIONS: readonly BarAction[] = [
  { action: 'restore', label: 'Restore', icon: 'restore' },
  { action: 'delete', label: 'Delete forever', icon: 'trash' },
];

export function SelectionBar({
  selected,
  myUserId,
  downloadBlocked,
  onAction,
  onClear,
  control,
  withSelectAll,
}: SelectionBarProps) {
  const rules = useItemRules();
  return (
    <section className="selection-bar" aria-label="Selection">
      <span className="selection-bar__count">
        {withSelectAll && <SelectAllBox control={control} />}
        <span role="status">{selected.length} selected</span>
      </span>
      <div className="selection-bar__actions">
        {(rules.trashed ? TRASH_ACTIONS : ACTIONS).map(({ action, label, icon }) => {
          const blocked = selectionBlocked(selected, action, rules, myUserId, downloadBlocked);
          return (
            <Tooltip key={action} content={blocked}>
              <Button
                size="sm"
                variant={action === 'delete' ? 'danger' : 'secondary'}
                disabled={blocked !== undefined}
                onClick={() => onAction(action)}
              >
                {Icon[icon](16)}
                <span className="selection-bar__label">{label}</span>
              </Button>
            </Tooltip>
          );
        })}
        <Button size="sm" variant="ghost" onClick={onClear}>
          {Icon.close(16)}
          <span className="selection-bar__label">Clear</span>
        </Button>
      </div>
    </section>
  );
}
