import { useEffect, useId, useRef, useState, type CSSProperties, type FocusEvent, type MouseEvent } from 'react';
import { cx } from '@sealbox/ui';
import { ANONYMOUS_UPLOADER } from '../../model/uploader.ts';
import type { ItemView } from '../../model/items.ts';
import type { SortKey } from './browser-search.ts';
import { displayName, formatBytes, formatDate, kindOf, rowTitle, type ItemKind } from './format.ts';
import { KindIcon, Icon } from './icons.tsx';
import { opensAt } from './item-rules.ts';
import { ItemMenu, type ItemAction } from './ItemMenu.tsx';
import { COLUMN_LABELS, type ListColumn, type Sort } from './sorting.ts';
import { onItem, type ListingControl } from './useSelectionKeyboard.ts';
import { useThumbnail } from './useThumbnail.ts';
import './buttons.css';
import './item-views.css';

interface CommonProps {
  items: ItemView[];
  users: Record<string, string>;
  myUserId: string | undefined;
  onOpen: (item: ItemView) => void;
  onAction: (action: ItemAction, item: ItemView) => void;
  downloadBlocked?: string | undefined;
  /** Selection, focus and clicks (useSelectionKeyboard). */
  control: ListingControl;
}

const SORTABLE: Partial<Record<ListColumn, SortKey>> = {
  name: 'name',
  extension: 'extension',
  size: 'size',
  created: 'created',
  modified: 'modified',
  uploader: 'uploader',
  owner: 'owner',
};

function userName(users: Record<string, string>, id: string | null, me: string | undefined): string {
  if (id === null) return ANONYMOUS_UPLOADER;
  const name = users[id] ?? 'Unknown';
  return id === me ? `${name} (you)` : name;
}

/** docs/protocol.md: an item opened under a grant that did not verify is shown, but flagged. */
export const UNVERIFIED_SHARE_TEXT = 'Unverified share: its grant is not signed by the keys you know for the sharer';

export function UnverifiedMark() {
  return (
    <span className="item-name__warning" title={UNVERIFIED_SHARE_TEXT} role="img" aria-label={UNVERIFIED_SHARE_TEXT}>
      {Icon.warning(16)}
    </span>
  );
}

export const SHARED_MARK_TEXT = 'Shared';

/**
 * One of the user's own items that is shared with someone or by a link (docs/web-files.md
 * "Sharing, clearer"): beside its name, outside the name's button, so the button keeps the name.
 */
export function SharedMark() {
  return (
    <span className="item-shared" title="Shared with people or by a link" role="img" aria-label={SHARED_MARK_TEXT}>
      {Icon.users(16)}
    </span>
  );
}

/** A click with Shift, Ctrl or Cmd selects (the row's handler) rather than opens. */
function withModifier(event: MouseEvent): boolean {
  return event.shiftKey || event.ctrlKey || event.metaKey;
}

/**
 * The item's name: the button that opens it, and where the keyboard focus of its row or card
 * sits (data-focus-target). An item that did not decrypt cannot open, but can still be focused
 * and selected (to delete it, say).
 */
function ItemName({ item, onOpen, tabIndex }: { item: ItemView; onOpen: (item: ItemView) => void; tabIndex: number }) {
  const name = displayName(item);
  const openable = opensAt(item);
  return (
    <button
      type="button"
      className={cx(
        'item-name',
        openable && 'item-name--link',
        !item.isDirectory && item.decrypted && 'item-name--file',
        !item.decrypted && 'item-name--encrypted',
        item.trashed && 'item-name--trashed',
      )}
      onClick={(event) => openable && !withModifier(event) && onOpen(item)}
      aria-disabled={openable ? undefined : true}
      title={item.decrypted ? name : rowTitle(item)}
      tabIndex={tabIndex}
      data-focus-target
    >
      <span className={cx('item-icon', `item-icon--${kindOf(item)}`)} aria-hidden="true">
        {item.decrypted ? <KindIcon kind={kindOf(item)} /> : Icon.lock(20)}
      </span>
      <span className="item-name__text">{name}</span>
      {item.untrusted ? <UnverifiedMark /> : null}
    </button>
  );
}

/**
 * What a row and a card share: whether the item is in the Tab order and selected, and its mouse
 * handlers (a click selects, a double click opens; events from its portaled menu are not its own).
 * The keyboard is handled for the whole listing (useSelectionKeyboard), not per item.
 */
function itemParts(item: ItemView, control: ListingControl, onOpen: (item: ItemView) => void) {
  const selected = control.isSelected(item.id);
  return {
    tabIndex: item.id === control.focusId ? 0 : -1,
    selected,
    handlers: {
      onClick: (event: MouseEvent) => control.onItemClick(event, item),
      onDoubleClick: (event: MouseEvent) => onItem(event) && !withModifier(event) && opensAt(item) && onOpen(item),
      onFocus: (event: FocusEvent) => control.onItemFocus(event, item),
      'data-item-id': item.id,
      'data-selected': selected || undefined,
    },
  };
}

/** The item's checkbox, named after it. */
function SelectBox({ item, control, tabIndex }: { item: ItemView; control: ListingControl; tabIndex: number }) {
  return (
    <input
      type="checkbox"
      className="select-box"
      checked={control.isSelected(item.id)}
      onChange={() => {}}
      onClick={(event) => control.onCheck(event, item)}
      aria-label={`Select ${displayName(item)}`}
      tabIndex={tabIndex}
    />
  );
}

/** The list header's (and the grid's) select-all checkbox, mixed while some are selected. */
export function SelectAllBox({ control, label }: { control: ListingControl; label?: string }) {
  const ref = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = control.all === 'some';
  }, [control.all]);
  const box = (
    <input
      ref={ref}
      id={id}
      type="checkbox"
      className="select-box"
      checked={control.all === 'all'}
      onChange={control.onCheckAll}
      aria-label={label ? undefined : 'Select all'}
    />
  );
  if (!label) return box;
  return (
    <span className="select-all">
      {box}
      <label htmlFor={id}>{label}</label>
    </span>
  );
}

export interface FileTableProps extends CommonProps {
  columns: ListColumn[];
  sort: Sort | undefined;
  onSort: (column: SortKey) => void;
}

export function FileTable({
  items,
  users,
  myUserId,
  onOpen,
  onAction,
  columns,
  sort,
  onSort,
  downloadBlocked,
  control,
}: FileTableProps) {
  const has = (c: ListColumn) => columns.includes(c);
  return (
    <table className="file-table">
      <thead>
        <tr>
          {columns.map((column) => {
            const key = SORTABLE[column];
            const active = key !== undefined && sort?.sortBy === key;
            const ariaSort = active ? (sort!.sortOrder === 'asc' ? 'ascending' : 'descending') : undefined;
            return (
              <th key={column} scope="col" className={`file-table__${column}`} aria-sort={ariaSort}>
                {column === 'name' && <SelectAllBox control={control} />}
                {key ? (
                  <button type="button" className="file-table__sort" onClick={() => onSort(key)}>
                    {COLUMN_LABELS[column]}
                    <span className="file-table__arrow" aria-hidden="true">
                      {active ? (sort!.sortOrder === 'asc' ? Icon.arrowUp(14) : Icon.arrowDown(14)) : null}
                    </span>
                  </button>
                ) : (
                  // Only the menu's column goes without a visible heading.
                  <span className={column === 'actions' ? 'sb-visually-hidden' : undefined}>{COLUMN_LABELS[column]}</span>
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => {
          const { tabIndex, selected, handlers } = itemParts(item, control, onOpen);
          return (
            <tr
              key={item.id}
              className={cx('file-row', item.isDirectory && 'file-row--folder', selected && 'file-row--selected')}
              {...handlers}
            >
              <td className="file-table__name">
                <div className="file-table__name-cell">
                  <SelectBox item={item} control={control} tabIndex={tabIndex} />
                  <ItemName item={item} onOpen={onOpen} tabIndex={tabIndex} />
                  {item.shared && <SharedMark />}
                </div>
              </td>
              {has('location') && (
                <td className="file-table__location" title={item.trashed?.from}>
                  {item.trashed?.from}
                </td>
              )}
              {has('deleted') && <td className="file-table__deleted">{item.trashed ? formatDate(item.trashed.at) : ''}</td>}
              {has('extension') && <td className="file-table__extension">{item.extension || '—'}</td>}
              {has('size') && <td className="file-table__size">{item.isDirectory ? '—' : formatBytes(item.size)}</td>}
              {has('created') && <td className="file-table__created">{formatDate(item.createdAt)}</td>}
              {has('modified') && <td className="file-table__modified">{formatDate(item.modifiedAt)}</td>}
              {has('uploader') && <td className="file-table__uploader">{userName(users, item.uploaderId, myUserId)}</td>}
              {has('owner') && <td className="file-table__owner">{userName(users, item.ownerId, myUserId)}</td>}
              <td className="file-table__actions">
                <ItemMenu item={item} tabIndex={tabIndex} {...{ myUserId, onAction, downloadBlocked }} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The picture of a grid card: the thumbnail of an image or a video once it is made (docs/product.md
 * "Screens"), else the type icon (or a lock when the item did not decrypt).
 */
function CardThumb({ item, kind }: { item: ItemView; kind: ItemKind }) {
  const slot = useRef<HTMLDivElement>(null);
  const url = useThumbnail(item, slot);
  // An <img> that fails to decode falls back to the icon rather than a broken image.
  const [failed, setFailed] = useState<string | null>(null);
  const shown = url !== null && failed !== url ? url : null;
  return (
    <div
      ref={slot}
      className={cx('file-card__thumb', `file-card__thumb--${kind}`, shown && 'file-card__thumb--preview')}
      data-preview-slot={kind === 'image' || kind === 'video' ? kind : undefined}
      data-preview={shown ? 'ready' : undefined}
      aria-hidden="true"
    >
      {shown ? (
        <>
          <img
            className="file-card__image"
            src={shown}
            alt={displayName(item)}
            decoding="async"
            draggable={false}
            onError={() => setFailed(shown)}
          />
          {kind === 'video' && <span className="file-card__badge">{Icon.video(16)}</span>}
        </>
      ) : item.decrypted ? (
        <KindIcon kind={kind} size={44} />
      ) : (
        Icon.lock(44)
      )}
    </div>
  );
}

export interface FileGridProps extends CommonProps {
  columns: number;
}

/**
 * Cards as in Drive: a click selects (with Shift or Ctrl/Cmd, a range or one more), a double
 * click opens, and the name opens at once. A long name takes two lines, then an ellipsis; the
 * whole name is the button's title and accessible name.
 */
export function FileGrid({ items, myUserId, onOpen, onAction, columns, downloadBlocked, control }: FileGridProps) {
  // A custom property set through React's style prop (CSSOM), allowed by the CSP.
  const style = { '--grid-columns': String(columns) } as CSSProperties;
  return (
    <ul className="file-grid" style={style} data-columns={columns}>
      {items.map((item) => {
        const kind = kindOf(item);
        const { tabIndex, selected, handlers } = itemParts(item, control, onOpen);
        return (
          <li
            key={item.id}
            className={cx('file-card', item.isDirectory && 'file-card--folder', selected && 'file-card--selected')}
            {...handlers}
          >
            <SelectBox item={item} control={control} tabIndex={tabIndex} />
            <CardThumb item={item} kind={kind} />
            <div className="file-card__footer">
              <ItemName item={item} onOpen={onOpen} tabIndex={tabIndex} />
              {item.shared && <SharedMark />}
              <ItemMenu item={item} tabIndex={tabIndex} {...{ myUserId, onAction, downloadBlocked }} />
            </div>
            <div className="file-card__meta">{item.isDirectory ? 'Folder' : formatBytes(item.size)}</div>
          </li>
        );
      })}
    </ul>
  );
}
