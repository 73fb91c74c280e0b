import { useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { cx } from '@sealbox/ui';
import type { ItemView } from './api.ts';
import type { SortKey } from './browser-search.ts';
import { displayName, formatBytes, formatDate, kindOf, rowTitle, type ItemKind } from './format.ts';
import { KindIcon, Icon } from './icons.tsx';
import { ItemMenu, type ItemAction } from './ItemMenu.tsx';
import { COLUMN_LABELS, type ListColumn, type Sort } from './sorting.ts';
import { useThumbnail } from './useThumbnail.ts';

interface CommonProps {
  items: ItemView[];
  users: Record<string, string>;
  myUserId: string | undefined;
  onOpen: (item: ItemView) => void;
  onAction: (action: ItemAction, item: ItemView) => void;
  downloadBlocked?: string | undefined;
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

function userName(users: Record<string, string>, id: string, me: string | undefined): string {
  const name = users[id] ?? 'Unknown';
  return id === me ? `${name} (you)` : name;
}

/** DESIGN 4: an item opened under a grant that did not verify is shown, but flagged. */
export const UNVERIFIED_SHARE_TEXT = 'Unverified share: its grant is not signed by the keys you know for the sharer';

function UnverifiedMark() {
  return (
    <span className="item-name__warning" title={UNVERIFIED_SHARE_TEXT} role="img" aria-label={UNVERIFIED_SHARE_TEXT}>
      {Icon.warning(16)}
    </span>
  );
}

function ItemName({ item, onOpen }: { item: ItemView; onOpen: (item: ItemView) => void }) {
  const name = displayName(item);
  const warning = item.untrusted ? <UnverifiedMark /> : null;
  const icon = (
    <span className={cx('item-icon', `item-icon--${kindOf(item)}`)} aria-hidden="true">
      {item.decrypted ? <KindIcon kind={kindOf(item)} /> : Icon.lock(20)}
    </span>
  );
  if (item.isDirectory) {
    return (
      <button
        type="button"
        className={cx('item-name', 'item-name--link', !item.decrypted && 'item-name--encrypted')}
        onClick={() => onOpen(item)}
        title={rowTitle(item)}
      >
        {icon}
        <span className="item-name__text">{name}</span>
        {warning}
      </button>
    );
  }
  if (item.decrypted) {
    // A file opens in the previewer (the route decides what opening does).
    return (
      <button
        type="button"
        className={cx('item-name', 'item-name--link', 'item-name--file')}
        onClick={() => onOpen(item)}
        title={name}
      >
        {icon}
        <span className="item-name__text">{name}</span>
        {warning}
      </button>
    );
  }
  return (
    <span className={cx('item-name', 'item-name--encrypted')} title={rowTitle(item)}>
      {icon}
      <span className="item-name__text">{name}</span>
      {warning}
    </span>
  );
}

export interface FileTableProps extends CommonProps {
  columns: ListColumn[];
  sort: Sort | undefined;
  onSort: (column: SortKey) => void;
}

export function FileTable({ items, users, myUserId, onOpen, onAction, columns, sort, onSort, downloadBlocked }: FileTableProps) {
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
                {key ? (
                  <button type="button" className="file-table__sort" onClick={() => onSort(key)}>
                    {COLUMN_LABELS[column]}
                    <span className="file-table__arrow" aria-hidden="true">
                      {active ? (sort!.sortOrder === 'asc' ? Icon.arrowUp(14) : Icon.arrowDown(14)) : null}
                    </span>
                  </button>
                ) : (
                  <span className="sb-visually-hidden">{COLUMN_LABELS[column]}</span>
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr
            key={item.id}
            className={cx('file-row', item.isDirectory && 'file-row--folder')}
            onDoubleClick={() => (item.isDirectory || item.decrypted) && onOpen(item)}
            data-item-id={item.id}
          >
            <td className="file-table__name">
              <ItemName item={item} onOpen={onOpen} />
            </td>
            {has('extension') && <td className="file-table__extension">{item.extension || '—'}</td>}
            {has('size') && <td className="file-table__size">{item.isDirectory ? '—' : formatBytes(item.size)}</td>}
            {has('created') && <td className="file-table__created">{formatDate(item.createdAt)}</td>}
            {has('modified') && <td className="file-table__modified">{formatDate(item.modifiedAt)}</td>}
            {has('uploader') && <td className="file-table__uploader">{userName(users, item.uploaderId, myUserId)}</td>}
            {has('owner') && <td className="file-table__owner">{userName(users, item.ownerId, myUserId)}</td>}
            <td className="file-table__actions">
              <ItemMenu item={item} myUserId={myUserId} onAction={onAction} downloadBlocked={downloadBlocked} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The picture of a grid card: the thumbnail of an image or a video once it is made (SPEC 2),
 * else the type icon (or a lock when the item did not decrypt).
 */
function CardThumb({ item, kind, onOpen }: { item: ItemView; kind: ItemKind; onOpen: (item: ItemView) => void }) {
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
      onClick={() => (item.isDirectory || item.decrypted) && onOpen(item)}
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

export function FileGrid({ items, myUserId, onOpen, onAction, columns, downloadBlocked }: FileGridProps) {
  // A custom property set through React's style prop (CSSOM), allowed by the CSP.
  const style = { '--grid-columns': String(columns) } as CSSProperties;
  const onKey = (event: KeyboardEvent, item: ItemView) => {
    if (event.key === 'Enter' && (item.isDirectory || item.decrypted) && event.target === event.currentTarget) onOpen(item);
  };
  return (
    <ul className="file-grid" style={style} data-columns={columns}>
      {items.map((item) => {
        const kind = kindOf(item);
        return (
          <li
            key={item.id}
            className={cx('file-card', item.isDirectory && 'file-card--folder')}
            data-item-id={item.id}
            onKeyDown={(e) => onKey(e, item)}
          >
            <CardThumb item={item} kind={kind} onOpen={onOpen} />
            <div className="file-card__footer">
              <ItemName item={item} onOpen={onOpen} />
              <ItemMenu item={item} myUserId={myUserId} onAction={onAction} downloadBlocked={downloadBlocked} />
            </div>
            <div className="file-card__meta">{item.isDirectory ? 'Folder' : formatBytes(item.size)}</div>
          </li>
        );
      })}
    </ul>
  );
}
