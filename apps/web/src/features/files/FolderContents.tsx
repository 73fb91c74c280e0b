/**
 * What a folder shows: its items as a table or a grid, or why there are none (docs/product.md
 * "Screens" and "Messages"); above them the selection bar while items are selected, and the '?'
 * list of the listing's keys.
 */
import { Button, Spinner } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import type { SortKey, ViewMode } from './browser-search.ts';
import { Icon } from './icons.tsx';
import { useItemRules, type BulkAction } from './item-rules.ts';
import type { ItemAction } from './ItemMenu.tsx';
import { FileGrid, FileTable, SelectAllBox } from './ItemViews.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { ShortcutsDialog } from './SelectionDialogs.tsx';
import { gridColumns, visibleColumns, type Sort } from './sorting.ts';
import { useSelectionKeyboard } from './useSelectionKeyboard.ts';
import { useViewportWidth } from './useViewportWidth.ts';
import './selection.css';
import './buttons.css';
import './empty-states.css';

export const UPLOAD_PROMPT_TEXT = 'Upload a file to get started';

/** Where an empty folder takes uploads, it says that files can be dropped on it too. */
export const DROP_HINT_TEXT = 'or drop files here';

export function EmptyState({ title = 'No files found', text, hint }: { title?: string; text?: string; hint?: string }) {
  return (
    <div className="empty-state">
      <span className="empty-state__icon" aria-hidden="true">
        {Icon.folder(40)}
      </span>
      <strong>{title}</strong>
      {text && <span>{text}</span>}
      {hint && <span className="empty-state__hint">{hint}</span>}
    </div>
  );
}

export interface FolderContentsProps {
  /** The listing's state: loading, failed with nothing to show, or its items. */
  status: 'pending' | 'error' | 'ready';
  /** How many items the folder has (the page shown may hold fewer). */
  total: number;
  items: ItemView[];
  users: Record<string, string>;
  myUserId: string | undefined;
  view: ViewMode;
  sort: Sort | undefined;
  onSort: (column: SortKey) => void;
  onOpen: (item: ItemView) => void;
  onAction: (action: ItemAction, item: ItemView) => void;
  /** Move, delete or download several items at once (the selection). */
  onSelection: (action: BulkAction, items: ItemView[]) => void;
  /** "Back to My Files" after a failed listing. */
  onHome: () => void;
  /** What that button says (link mode: back to the shared folder). */
  homeLabel?: string;
  /** Why downloads are unavailable (undefined: they are available). */
  downloadBlocked: string | undefined;
  /** What an empty folder says under 'No files found'. */
  emptyText?: string | undefined;
}

export function FolderContents({
  status,
  total,
  view,
  sort,
  onSort,
  onHome,
  homeLabel = 'Back to My Files',
  emptyText,
  onSelection,
  ...items
}: FolderContentsProps) {
  const width = useViewportWidth();
  const { trashed } = useItemRules();
  const columns = view === 'grid' ? gridColumns(width) : 1;
  const listing = useSelectionKeyboard({ ...items, columns, onSelection });
  const shortcuts = <ShortcutsDialog open={listing.shortcuts.open} onClose={listing.shortcuts.onClose} />;
  if (status === 'pending') {
    return (
      <div className="browser__loading">
        <Spinner label="Loading files" />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="empty-state">
        <strong>Error fetching files.</strong>
        <Button variant="secondary" onClick={onHome}>
          {homeLabel}
        </Button>
      </div>
    );
  }
  if (total === 0)
    return (
      <>
        {/* A mode names its own text only where the folder takes no uploads (docs/web-files.md). */}
        <EmptyState text={emptyText ?? UPLOAD_PROMPT_TEXT} hint={emptyText === undefined ? DROP_HINT_TEXT : undefined} />
        {shortcuts}
      </>
    );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keys reach this wrapper from the items and the bar inside it
    <div className="listing" ref={listing.area} onKeyDown={listing.onKeyDown}>
      <div className="listing__head">
        {listing.selected.length > 0 ? (
          <SelectionBar
            selected={listing.selected}
            myUserId={items.myUserId}
            downloadBlocked={items.downloadBlocked}
            onAction={listing.act}
            onClear={listing.clear}
            control={listing.control}
            withSelectAll={view === 'grid'}
          />
        ) : (
          <>
            {view === 'grid' ? (
              <SelectAllBox control={listing.control} label="Select all" />
            ) : (
              <span className="listing__count">{total === 1 ? '1 item' : `${total} items`}</span>
            )}
            <button
              type="button"
              className="icon-button listing__keys"
              onClick={listing.shortcuts.show}
              aria-label="Keyboard shortcuts"
              title="Keyboard shortcuts (?)"
            >
              ?
            </button>
          </>
        )}
      </div>
      {view === 'grid' ? (
        <FileGrid {...items} control={listing.control} columns={columns} />
      ) : (
        <FileTable {...items} control={listing.control} columns={visibleColumns(width, trashed)} sort={sort} onSort={onSort} />
      )}
      {shortcuts}
    </div>
  );
}
