import { createRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PROFILE_QUERY_KEY, protectedPage } from '../features/auth/index.ts';
import { OWN_SCOPE } from '../model/browse-scope.ts';
import {
  BrowseScopeContext,
  BrowserControls,
  BrowserFrame,
  BrowserHeader,
  BrowserMain,
  BrowserPath,
  BrowserToolbar,
  FolderView,
  ItemDialogs,
  UploadButton,
  editRights,
  filesKeys,
  folderCrumbs,
  folderQueryOptions,
  treeQueryOptions,
  locationIn,
  useBrowserView,
  useDialogState,
  useFolderListing,
  usePages,
  useSortedItems,
  useTreeSearch,
  nextBrowserSearch,
  validateBrowserSearch,
  type BrowserSearch,
} from '../features/files/index.ts';
import { useLiveStatus } from '../features/live/index.ts';
import { ShareDialog } from '../features/sharing/index.ts';
import { DOWNLOAD_BLOCKED, FileDropZone, UploadOverlay } from '../features/transfers/index.ts';
import { useItemActions } from './item-actions.ts';
import { rootRoute } from './root.tsx';

/** SPEC 2 'My Files': a folder of the user's tree with its path, search, pages, item actions (Share too) and uploads. */
function FilesPage() {
  const search = filesRoute.useSearch();
  const navigate = filesRoute.useNavigate();
  const onSearchChange = (patch: Partial<BrowserSearch>) => void navigate({ search: (prev) => nextBrowserSearch(prev, patch) });
  const queryClient = useQueryClient();
  const parentId = search.parentId ?? null;
  const { view, sort, myUserId } = useBrowserView(search);
  const listing = useFolderListing(OWN_SCOPE, parentId, { poll: useLiveStatus() !== 'online' });
  const finder = useTreeSearch(sort, treeQueryOptions(OWN_SCOPE));
  const sorted = useSortedItems(listing.data, sort);
  const pages = usePages(sorted, search, onSearchChange);
  const { dialog, open: openDialog, close: closeDialog } = useDialogState();
  const rights = editRights(parentId, listing.data?.folder ?? null, myUserId);
  const locationOf = locationIn(listing.data, finder.tree.data);

  const go = (id: string | null) => {
    finder.setQuery('');
    onSearchChange({ parentId: id ?? undefined });
  };
  const { preview, openItem, onAction, onSelection } = useItemActions({ shown: sorted, go, openDialog, scope: OWN_SCOPE });

  return (
    <BrowseScopeContext.Provider value={OWN_SCOPE}>
      <BrowserFrame
        active="files"
        folderId={parentId}
        onNewFolder={() => openDialog({ kind: 'create' })}
        newFolderBlocked={rights.newFolderBlocked}
      >
        <BrowserMain>
          <BrowserHeader title="My Files">
            <UploadButton blocked={rights.uploadBlocked} onClick={() => openDialog({ kind: 'upload' })} />
          </BrowserHeader>
          <BrowserToolbar>
            <BrowserPath
              crumbs={folderCrumbs(listing.data, parentId)}
              onNavigate={go}
              onRefresh={() => {
                listing.refresh();
                finder.refresh();
              }}
              busy={listing.isFetching || finder.tree.isFetching}
            />
            <BrowserControls search={finder.box} view={view} sort={sort} onSearchChange={onSearchChange} />
          </BrowserToolbar>
          <FileDropZone
            parentId={parentId}
            scope={OWN_SCOPE}
            items={sorted}
            folderName={parentId === null ? 'My Files' : (listing.data?.folder?.name ?? 'this folder')}
            blocked={rights.uploadBlocked}
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
              onJump={go}
              onOpenResult={(item) => preview.open(item, { fromSearch: true })}
              users={listing.data?.users ?? {}}
              myUserId={myUserId}
              onOpen={openItem}
              onAction={onAction}
              onSelection={onSelection}
              onHome={() => go(null)}
              downloadBlocked={DOWNLOAD_BLOCKED}
            />
          </FileDropZone>
        </BrowserMain>
        {preview.element}
        <ItemDialogs
          dialog={dialog}
          onClose={closeDialog}
          openItems={listing.data?.items}
          knownItems={finder.tree.data?.items}
          parentId={parentId}
          users={listing.data?.users ?? {}}
          myUserId={myUserId}
          locationOf={locationOf}
        />
        {dialog.kind === 'share' && <ShareDialog open item={dialog.item} myUserId={myUserId} onClose={closeDialog} />}
        <UploadOverlay
          parentId={parentId}
          scope={OWN_SCOPE}
          items={sorted}
          open={dialog.kind === 'upload'}
          onClose={() => {
            closeDialog();
            void queryClient.invalidateQueries({ queryKey: filesKeys.folder(OWN_SCOPE, parentId), exact: true });
            void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
          }}
        />
      </BrowserFrame>
    </BrowseScopeContext.Provider>
  );
}

export const filesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/files',
  validateSearch: validateBrowserSearch,
  loaderDeps: ({ search }) => ({ parentId: search.parentId ?? null }),
  // Primes the folder's listing (a link's preload on intent too) without holding the navigation:
  // the page reads the same query and shows its own loading and error states.
  loader: ({ context, deps }) =>
    void context.queryClient.ensureQueryData(folderQueryOptions(OWN_SCOPE, deps.parentId)).catch(() => undefined),
  ...protectedPage(FilesPage),
});
