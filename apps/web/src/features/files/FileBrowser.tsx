/**
 * The file browser of SPEC 2 (/files 'My Files', /shared 'Files Shared with Me'): sidebar,
 * breadcrumbs, search, list and grid views, sorting, pagination, item actions and dialogs.
 * Its state lives in the URL (parentId, view, sortBy, sortOrder); the profile's preferences
 * are the defaults when the URL has none.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAtom, useAtomValue } from 'jotai';
import { Button, Spinner, Tooltip, TooltipProvider, cx, toast } from '@sealbox/ui';
import { PROFILE_QUERY_KEY } from '../auth/auth-state.ts';
import { sessionAtom } from '../auth/session.ts';
import { useProfile } from '../auth/useProfile.ts';
import type { ItemView } from './api.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import type { Crumb } from './breadcrumbs.ts';
import { SORT_KEYS, type BrowserSearch, type SortKey, type ViewMode } from './browser-search.ts';
import { CreateFolderDialog, DeleteDialog, InfoDialog, MoveDialog, RenameDialog } from './dialogs.tsx';
import { ENCRYPTED_DIRECTORY, displayName } from './format.ts';
import { Icon } from './icons.tsx';
import type { ItemAction } from './ItemMenu.tsx';
import { FileGrid, FileTable } from './ItemViews.tsx';
import { filesKeys, useCreateFolder, useDeleteItem, useFolder, useMoveItem, useRenameItem, useTree } from './queries.ts';
import { Sidebar, sidebarCollapsedAtom, sidebarOpenAtom } from './Sidebar.tsx';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SORT_LABELS,
  effectiveSort,
  gridColumns,
  nextSort,
  paginate,
  searchItems,
  sortItems,
  visibleColumns,
  type PageSize,
} from './sorting.ts';
import { DOWNLOAD_BLOCKED, UploadOverlay, downloadItems } from './transfers-bridge.tsx';
import { MOBILE_BREAKPOINT, useViewportWidth } from './useViewportWidth.ts';
import { useLiveStatus } from '../live/status.ts';
import './files.css';

export const UPLOAD_BLOCKED_TEXT = 'You do not have permission to upload files here';
export const NEW_FOLDER_BLOCKED_TEXT = "You don't have permission to create folders here";

export interface FileBrowserProps {
  mode: 'files' | 'shared';
  title: string;
  search: BrowserSearch;
  /** Merges into the URL's search params; undefined values remove a param. */
  onSearchChange: (patch: Partial<BrowserSearch>) => void;
}

type DialogState =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'rename' | 'delete' | 'move' | 'info'; item: ItemView }
  | { kind: 'upload' };

export function FileBrowser({ mode, title, search, onSearchChange }: FileBrowserProps) {
  const profile = useProfile();
  const session = useAtomValue(sessionAtom);
  const myUserId = profile?.id ?? session?.userId;
  const width = useViewportWidth();
  const mobile = width < MOBILE_BREAKPOINT;
  const collapsed = useAtomValue(sidebarCollapsedAtom);
  const [sidebarOpen, setSidebarOpen] = useAtom(sidebarOpenAtom);
  const queryClient = useQueryClient();

  const parentId = mode === 'files' ? (search.parentId ?? null) : null;
  const view: ViewMode = search.view ?? (profile?.gridView ? 'grid' : 'list');
  const sort = effectiveSort(search, profile ? { sortBy: profile.sortBy, sortOrder: profile.sortOrder } : undefined);

  const live = useLiveStatus();
  const listing = useFolder(parentId, { shown: true, poll: live !== 'online', enabled: mode === 'files' });
  const [query, setQuery] = useState('');
  const searching = query.trim() !== '';
  const tree = useTree(searching && mode === 'files');

  const [pageSize, setPageSize] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(0);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  const createFolder = useCreateFolder();
  const renameItem = useRenameItem();
  const moveItem = useMoveItem();
  const deleteItem = useDeleteItem();

  // Back to the first page whenever what is listed, or its order, changes.
  useEffect(() => setPage(0), [parentId, sort?.sortBy, sort?.sortOrder, pageSize]);
  // The overlay sidebar closes on navigation and when the screen grows past the breakpoint.
  useEffect(() => setSidebarOpen(false), [parentId, mode, mobile, setSidebarOpen]);
  useEffect(() => {
    if (!(mobile && sidebarOpen)) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setSidebarOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mobile, sidebarOpen, setSidebarOpen]);

  // SPEC 8 toasts: a failed listing once per failure, undecryptable items once per folder.
  useEffect(() => {
    if (listing.isError) toast('Error fetching files.', 'error');
  }, [listing.isError, listing.errorUpdatedAt]);
  const warnedFolders = useRef(new Set<string>());
  useEffect(() => {
    const data = listing.data;
    if (!data) return;
    const key = parentId ?? 'root';
    const broken = data.items.some((i) => !i.decrypted) || (data.folder !== null && !data.folder.decrypted);
    if (broken && !warnedFolders.current.has(key)) {
      warnedFolders.current.add(key);
      toast('Error decrypting file', 'error');
    }
  }, [listing.data, parentId]);

  const users = listing.data?.users ?? {};
  const folder = listing.data?.folder ?? null;
  const sorted = useMemo(
    () => sortItems(listing.data?.items ?? [], sort, new Map(Object.entries(listing.data?.users ?? {}))),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sort is derived from these
    [listing.data, sort?.sortBy, sort?.sortOrder],
  );
  const shown = paginate(sorted, pageSize, page);

  const crumbs: Crumb[] = [{ id: null, label: 'Home' }];
  for (const ancestor of listing.data?.ancestors ?? []) crumbs.push({ id: ancestor.id, label: ancestor.name ?? ENCRYPTED_DIRECTORY });
  if (parentId) crumbs.push({ id: parentId, label: folder ? (folder.name ?? ENCRYPTED_DIRECTORY) : '…' });

  // SPEC 5 and 6: own files always take uploads and folders; elsewhere the folder's edit right decides.
  const ownHere = mode === 'files' && (parentId === null || folder?.ownerId === myUserId);
  const canEditHere = ownHere || (mode === 'files' && folder?.editPermission === true);
  const uploadBlocked = canEditHere ? undefined : UPLOAD_BLOCKED_TEXT;
  const newFolderBlocked = canEditHere ? undefined : NEW_FOLDER_BLOCKED_TEXT;

  const go = (id: string | null) => {
    setQuery('');
    onSearchChange({ parentId: id ?? undefined });
  };
  const open = (item: ItemView) => {
    if (item.isDirectory) go(item.id);
  };
  const onAction = (action: ItemAction, item: ItemView) => {
    switch (action) {
      case 'open':
        open(item);
        break;
      case 'download':
        downloadItems([item]).catch(() => toast('Error downloading file/folder. Please try again.', 'error'));
        break;
      default:
        setDialog({ kind: action, item });
    }
  };
  const onSort = (column: SortKey) => {
    const next = nextSort(sort ?? {}, column);
    onSearchChange({ sortBy: next.sortBy, sortOrder: next.sortOrder });
  };
  const refresh = () => {
    void listing.refetch();
    if (searching) void tree.refetch();
    void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
  };

  const locationOf = (item: ItemView): string => {
    const names = new Map<string, ItemView>();
    for (const i of [...(listing.data?.ancestors ?? []), ...(folder ? [folder] : []), ...(tree.data?.items ?? [])]) names.set(i.id, i);
    const parts: string[] = [];
    let at = item.parentId;
    while (at && parts.length < 25) {
      const parent = names.get(at);
      parts.unshift(parent ? displayName(parent) : ENCRYPTED_DIRECTORY);
      at = parent?.parentId ?? null;
    }
    return ['My Files', ...parts].join(' / ');
  };

  const results = useMemo(() => (searching ? sortItems(searchItems(tree.data?.items ?? [], query), sort) : []), [searching, tree.data, query, sort?.sortBy, sort?.sortOrder]); // eslint-disable-line react-hooks/exhaustive-deps

  const sidebarShift = mobile ? 'browser--mobile' : collapsed ? 'browser--collapsed' : 'browser--expanded';

  let content;
  if (mode === 'shared') {
    content = <EmptyState text="No files have been shared with you yet" />;
  } else if (searching) {
    content = tree.isPending ? (
      <div className="browser__loading">
        <Spinner label="Searching your files" />
      </div>
    ) : results.length === 0 ? (
      <EmptyState title="No files found" />
    ) : (
      <ul className="search-results" aria-label="Search results">
        {results.map((item) => (
          <li key={item.id} className="search-result">
            <span className={cx('item-icon')} aria-hidden="true">
              {item.isDirectory ? Icon.folder() : Icon.file()}
            </span>
            <span className="search-result__text">
              <span className="search-result__name">{displayName(item)}</span>
              <span className="search-result__where">{locationOf(item)}</span>
            </span>
            <Button size="sm" variant="secondary" onClick={() => go(item.parentId)}>
              Jump to Folder
            </Button>
          </li>
        ))}
      </ul>
    );
  } else if (listing.isPending) {
    content = (
      <div className="browser__loading">
        <Spinner label="Loading files" />
      </div>
    );
  } else if (listing.isError && !listing.data) {
    content = (
      <div className="empty-state">
        <strong>Error fetching files.</strong>
        <Button variant="secondary" onClick={() => go(null)}>
          Back to My Files
        </Button>
      </div>
    );
  } else if (sorted.length === 0) {
    content = <EmptyState text="Upload a file to get started" />;
  } else if (view === 'grid') {
    content = (
      <FileGrid
        items={shown.items}
        users={users}
        myUserId={myUserId}
        onOpen={open}
        onAction={onAction}
        columns={gridColumns(width)}
        downloadBlocked={DOWNLOAD_BLOCKED}
      />
    );
  } else {
    content = (
      <FileTable
        items={shown.items}
        users={users}
        myUserId={myUserId}
        onOpen={open}
        onAction={onAction}
        columns={visibleColumns(width)}
        sort={sort}
        onSort={onSort}
        downloadBlocked={DOWNLOAD_BLOCKED}
      />
    );
  }

  return (
    <TooltipProvider>
      <div className={cx('browser', sidebarShift)}>
        <Sidebar
          active={mode}
          mobile={mobile}
          onNewFolder={() => setDialog({ kind: 'create' })}
          newFolderBlocked={newFolderBlocked}
        />
        {mobile && sidebarOpen && <div className="browser__scrim" onClick={() => setSidebarOpen(false)} aria-hidden="true" />}

        <section className="browser__main" aria-labelledby="browser-title">
          <header className="browser__header">
            <div className="browser__heading">
              {mobile && (
                <button
                  type="button"
                  className="icon-button"
                  onClick={() => setSidebarOpen(true)}
                  aria-label="Open sidebar"
                  aria-expanded={sidebarOpen}
                  aria-controls="files-sidebar"
                >
                  {Icon.menu(20)}
                </button>
              )}
              <h1 id="browser-title">{title}</h1>
            </div>
            <Tooltip content={uploadBlocked}>
              <Button onClick={() => setDialog({ kind: 'upload' })} disabled={uploadBlocked !== undefined}>
                {Icon.upload(18)}
                Upload File
              </Button>
            </Tooltip>
          </header>

          <div className="browser__toolbar">
            <div className="browser__path">
              <Breadcrumbs crumbs={crumbs} compact={width < 600} onNavigate={go} />
              <Button
                size="sm"
                variant="ghost"
                onClick={refresh}
                aria-label="Refresh"
                title="Refresh"
                className={cx('refresh', (listing.isFetching || tree.isFetching) && 'refresh--busy')}
              >
                {Icon.refresh(16)}
              </Button>
            </div>
            <div className="browser__controls">
              <label className="search-box">
                {Icon.search(16)}
                <span className="sb-visually-hidden">Search files</span>
                <input type="search" placeholder="Search files..." value={query} onChange={(e) => setQuery(e.target.value)} disabled={mode !== 'files'} />
              </label>
              {view === 'grid' && (
                <div className="sort-control">
                  <label>
                    <span className="sb-visually-hidden">Sort by</span>
                    <select
                      value={sort?.sortBy ?? ''}
                      onChange={(e) => {
                        const value = e.target.value as SortKey | '';
                        onSearchChange(value ? { sortBy: value, sortOrder: sort?.sortOrder ?? 'asc' } : { sortBy: undefined, sortOrder: undefined });
                      }}
                    >
                      <option value="">Sort by…</option>
                      {SORT_KEYS.map((key) => (
                        <option key={key} value={key}>
                          {SORT_LABELS[key]}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={!sort}
                    onClick={() => sort && onSearchChange({ sortBy: sort.sortBy, sortOrder: sort.sortOrder === 'asc' ? 'desc' : 'asc' })}
                    aria-label={sort?.sortOrder === 'desc' ? 'Sort descending' : 'Sort ascending'}
                    title={sort?.sortOrder === 'desc' ? 'Descending' : 'Ascending'}
                  >
                    {sort?.sortOrder === 'desc' ? Icon.arrowDown(16) : Icon.arrowUp(16)}
                  </Button>
                </div>
              )}
              <div className="view-toggle" role="group" aria-label="View">
                {(['list', 'grid'] as const).map((mode) => (
                  <button
                    key={mode}
                    type="button"
                    className={cx('view-toggle__option', view === mode && 'view-toggle__option--active')}
                    aria-pressed={view === mode}
                    onClick={() => onSearchChange({ view: mode })}
                    title={mode === 'list' ? 'List view' : 'Grid view'}
                  >
                    {mode === 'list' ? Icon.list(18) : Icon.grid(18)}
                    <span className="sb-visually-hidden">{mode === 'list' ? 'List' : 'Grid'}</span>
                  </button>
                ))}
              </div>
            </div>
          </div>

          <div className={`browser__body browser__body--${view}`}>{content}</div>

          {!searching && mode === 'files' && sorted.length > 0 && (
            <Pagination
              from={shown.from}
              to={shown.to}
              total={shown.total}
              page={shown.page}
              pageCount={shown.pageCount}
              pageSize={pageSize}
              onPage={setPage}
              onPageSize={setPageSize}
            />
          )}
        </section>

        {dialog.kind === 'create' && (
          <CreateFolderDialog
            open
            onClose={closeDialog}
            busy={createFolder.isPending}
            onCreate={(name) => createFolder.mutate({ parentId, name }, { onSuccess: closeDialog })}
          />
        )}
        {dialog.kind === 'rename' && (
          <RenameDialog
            open
            item={dialog.item}
            onClose={closeDialog}
            busy={renameItem.isPending}
            onRename={(name) => renameItem.mutate({ item: dialog.item, name }, { onSuccess: closeDialog })}
          />
        )}
        {dialog.kind === 'delete' && (
          <DeleteDialog
            open
            item={dialog.item}
            onClose={closeDialog}
            busy={deleteItem.isPending}
            onDelete={() => deleteItem.mutate(dialog.item, { onSuccess: closeDialog })}
          />
        )}
        {dialog.kind === 'move' && (
          <MoveDialog
            open
            item={dialog.item}
            myUserId={myUserId}
            onClose={closeDialog}
            busy={moveItem.isPending}
            onMove={(target) => moveItem.mutate({ item: dialog.item, parentId: target }, { onSuccess: closeDialog })}
          />
        )}
        {dialog.kind === 'info' && (
          <InfoDialog open item={dialog.item} users={users} myUserId={myUserId} location={locationOf(dialog.item)} onClose={closeDialog} />
        )}
        {mode === 'files' && (
          <UploadOverlay
            parentId={parentId}
            open={dialog.kind === 'upload'}
            onClose={() => {
              closeDialog();
              void queryClient.invalidateQueries({ queryKey: filesKeys.folder(parentId), exact: true });
              void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
            }}
          />
        )}
      </div>
    </TooltipProvider>
  );
}

function EmptyState({ title = 'No files found', text }: { title?: string; text?: string }) {
  return (
    <div className="empty-state">
      <span className="empty-state__icon" aria-hidden="true">
        {Icon.folder(40)}
      </span>
      <strong>{title}</strong>
      {text && <span>{text}</span>}
    </div>
  );
}

function Pagination({
  from,
  to,
  total,
  page,
  pageCount,
  pageSize,
  onPage,
  onPageSize,
}: {
  from: number;
  to: number;
  total: number;
  page: number;
  pageCount: number;
  pageSize: PageSize;
  onPage: (page: number) => void;
  onPageSize: (size: PageSize) => void;
}) {
  return (
    <nav className="pagination" aria-label="Pagination">
      <label className="pagination__size">
        <span>Items per page</span>
        <select value={pageSize} onChange={(e) => onPageSize(Number(e.target.value) as PageSize)}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size === 0 ? 'All' : size}
            </option>
          ))}
        </select>
      </label>
      <span className="pagination__range" aria-live="polite">
        {from}–{to} of {total}
      </span>
      <div className="pagination__buttons">
        <Button size="sm" variant="secondary" onClick={() => onPage(page - 1)} disabled={page <= 0} aria-label="Previous page">
          {Icon.chevronLeft(16)}
        </Button>
        <span className="pagination__page">
          Page {page + 1} of {pageCount}
        </span>
        <Button size="sm" variant="secondary" onClick={() => onPage(page + 1)} disabled={page >= pageCount - 1} aria-label="Next page">
          {Icon.chevronRight(16)}
        </Button>
      </div>
    </nav>
  );
}
