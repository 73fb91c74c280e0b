/**
 * The one file browser (docs/product.md "Screens" "File browser"): the frame, toolbar, drop zone,
 * folder view, previewer, dialogs and uploads every screen of files shares, configured by a mode
 * (My Files, Files Shared with Me, a share link; browser-mode.ts). A route gives it its mode and
 * the URL's state; everything the screens have in common is said once, here.
 */
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { REFRESH_OFFLINE_TEXT } from '../../model/failure.ts';
import { ShareDialog } from '../sharing/index.ts';
import { DOWNLOAD_BLOCKED, FileDropZone, UploadOverlay } from '../transfers/index.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { openKeyOf, SearchIndexHint } from '../search/index.ts';
import { filesKeys } from '../items/index.ts';
import type { BrowserMode } from './browser-mode.ts';
import {
  BrowserFrame,
  BrowserHeader,
  BrowserMain,
  NewFolderButton,
  PlaceActionButton,
  PlaceFacts,
  UploadButton,
} from './BrowserFrame.tsx';
import type { BrowserSearch } from './browser-search.ts';
import { useBrowserView, usePages, useSortedItems, useTreeSearch } from './browser-state.ts';
import { BrowserControls, BrowserPath, BrowserToolbar } from './BrowserToolbar.tsx';
import { FolderView } from './FolderView.tsx';
import { useItemActions } from './item-actions.ts';
import { ItemRulesContext } from './item-rules.ts';
import { ItemDialogs, useDialogState } from './ItemDialogs.tsx';
import { BrowseScopeContext } from './scope-context.ts';
import './browser-frame.css';

const NO_RULES = {};

export const OPENING_BLOCKED_TEXT = 'Opening the rest of this folder…';

export interface FileBrowserProps {
  mode: BrowserMode;
  /** The URL's state (folder, view, sort, page). */
  search: BrowserSearch;
  /** Changes the URL's state (the route knows how to keep its own parts, e.g. a link's key). */
  onSearchChange: (patch: Partial<BrowserSearch>) => void;
}

export function FileBrowser({ mode, search, onSearchChange }: FileBrowserProps) {
  const queryClient = useQueryClient();
  const parentId = search.parentId ?? null;
  const { view, sort, myUserId } = useBrowserView(search);
  const place = mode.usePlace(parentId, { sort, myUserId });
  const { listing, rights } = place;
  // docs/web-files.md "Opening a large folder": until the whole folder is in, its names cannot
  // all be checked, so a drop waits and New Folder and Rename keep their button busy (ItemDialogs).
  const opening = listing.data?.partial !== undefined;
  const dropBlocked = rights.uploadBlocked ?? (opening ? OPENING_BLOCKED_TEXT : undefined);
  const sorted = useSortedItems(listing.data, sort);
  const pages = usePages(sorted, search, onSearchChange);
  const { dialog, open: openDialog, close: closeDialog } = useDialogState();
  const finder = useTreeSearch(sort, place.tree, mode.indexedSearch);
  const locationOf = place.locationOf(finder.tree.data, finder.searching);

  const go = (id: string | null) => {
    finder.setQuery('');
    onSearchChange({ parentId: mode.parentParam ? mode.parentParam(id) : (id ?? undefined) });
  };
  // Files open in the previewer, which cycles over the folder's files in the order shown.
  const { preview, openItem, onAction, onSelection } = useItemActions({
    shown: sorted,
    go,
    openDialog,
    scope: mode.scope,
    onRemoveShare: place.onRemoveShare,
    onBlockSharer: place.onBlockSharer,
    onRestore: place.onRestore,
  });
  const users = listing.data?.users ?? {};

  return (
    <BrowseScopeContext.Provider value={mode.scope}>
      <ItemRulesContext.Provider value={place.itemRules ?? NO_RULES}>
        <BrowserFrame
          active={mode.active}
          folderId={parentId}
          onNewFolder={() => openDialog({ kind: 'create' })}
          newFolderBlocked={rights.newFolderBlocked}
          withSidebar={place.sidebar !== false}
        >
          <BrowserMain>
            <BrowserHeader
              title={place.title ?? mode.title}
              about={place.about && <PlaceFacts about={place.about} onDownload={(item) => onAction('download', item)} />}
            >
              {/* Without a sidebar (an anonymous link visitor), New Folder stands beside Upload File. */}
              {place.sidebar === false && (
                <NewFolderButton blocked={rights.newFolderBlocked} onClick={() => openDialog({ kind: 'create' })} />
              )}
              {place.action ? (
                <PlaceActionButton action={place.action} />
              ) : (
                <UploadButton blocked={rights.uploadBlocked} onClick={() => openDialog({ kind: 'upload' })} />
              )}
            </BrowserHeader>
            <BrowserToolbar>
              <BrowserPath
                crumbs={place.crumbs}
                onNavigate={go}
                onRefresh={() => {
                  // Offline, the listing waits for the network rather than failing: say so.
                  if (!navigator.onLine) toast(REFRESH_OFFLINE_TEXT, 'error');
                  place.refresh();
                  finder.refresh();
                }}
                busy={listing.isFetching || finder.tree.isFetching}
              />
              <BrowserControls
                {...(place.searchable === false ? {} : { search: finder.box })}
                view={view}
                sort={sort}
                onSearchChange={onSearchChange}
              />
            </BrowserToolbar>
            {mode.indexedSearch && <SearchIndexHint />}
            {place.warning && (
              <p className="browser__warning" role="alert">
                {place.warning}
              </p>
            )}
            <FileDropZone
              parentId={place.target}
              scope={mode.scope}
              items={sorted}
              folderName={place.folderName}
              blocked={dropBlocked}
            >
              <FolderView
                view={view}
                sort={sort}
                onSearchChange={onSearchChange}
                listing={listing}
                sorted={sorted}
                pages={pages}
                finder={finder}
                locationOf={locationOf}
                onJump={(folderId) => go(place.jumpTarget ? place.jumpTarget(finder.tree.data, folderId) : folderId)}
                onOpenResult={(item) => {
                  // A result of the search index may be one this tab never listed: its key first.
                  const section = mode.indexedSearch;
                  if (!section) return preview.open(item, { fromSearch: true });
                  void openKeyOf(section, item.id).then(() => preview.open(item, { fromSearch: true }));
                }}
                users={users}
                myUserId={myUserId}
                onOpen={openItem}
                onAction={onAction}
                onSelection={onSelection}
                onHome={() => go(null)}
                homeLabel={mode.homeLabel}
                emptyText={place.emptyText}
                downloadBlocked={DOWNLOAD_BLOCKED}
              />
            </FileDropZone>
          </BrowserMain>
          {preview.element}
          <ItemDialogs
            dialog={dialog}
            onClose={closeDialog}
            openItems={listing.data?.items}
            opening={opening}
            knownItems={place.knownItems === undefined ? finder.tree.data?.items : place.knownItems}
            parentId={place.target}
            users={users}
            myUserId={myUserId}
            locationOf={locationOf}
            moveRoot={place.moveRoot}
          />
          {place.share && dialog.kind === 'share' && (
            <ShareDialog open item={dialog.item} myUserId={myUserId} onClose={closeDialog} />
          )}
          {!rights.uploadBlocked && (
            <UploadOverlay
              parentId={place.target}
              scope={mode.scope}
              items={sorted}
              open={dialog.kind === 'upload'}
              onClose={() => {
                closeDialog();
                void queryClient.invalidateQueries({ queryKey: filesKeys.folder(mode.scope, parentId), exact: true });
                void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
                place.onUploadClosed?.();
              }}
            />
          )}
        </BrowserFrame>
      </ItemRulesContext.Provider>
    </BrowseScopeContext.Provider>
  );
}
