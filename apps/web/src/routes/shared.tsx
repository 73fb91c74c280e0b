import { useEffect, useMemo } from 'react';
import { createRoute } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { PROFILE_QUERY_KEY, protectedPage } from '../features/auth/index.ts';
import { SHARED_SCOPE } from '../model/browse-scope.ts';
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
  ItemRulesContext,
  NEW_FOLDER_BLOCKED_TEXT,
  NO_EDIT_TEXT,
  UPLOAD_BLOCKED_TEXT,
  UploadButton,
  editRights,
  filesKeys,
  folderCrumbs,
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
  type FolderListing,
  type ItemRules,
} from '../features/files/index.ts';
import {
  SHARED_EMPTY_TEXT,
  UNTRUSTED_FOLDER_TEXT,
  blockAccount,
  mergeSharedTree,
  removeFromMyList,
  sharedFolderIds,
  sharedJumpTarget,
  sharedLocationIn,
  sharedQueryOptions,
  sharedTreeQueryOptions,
  sharingKeys,
} from '../features/sharing/index.ts';
import { useLiveStatus } from '../features/live/index.ts';
import { DOWNLOAD_BLOCKED, FileDropZone, UploadOverlay } from '../features/transfers/index.ts';
import { useItemActions } from './item-actions.ts';
import { rootRoute } from './root.tsx';

const SHARED_TITLE = 'Files Shared with Me';

/**
 * SPEC 2 'Files Shared with Me': at the top, what other users shared with the signed-in user
 * (GET /api/shared, each grant checked in the crypto worker); inside, the shared folders with
 * the caller's role on them (SPEC 6). Live events add and remove shares without a reload.
 */
function SharedPage() {
  const search = sharedRoute.useSearch();
  const navigate = sharedRoute.useNavigate();
  const onSearchChange = (patch: Partial<BrowserSearch>) => void navigate({ search: (prev) => nextBrowserSearch(prev, patch) });
  const queryClient = useQueryClient();
  const parentId = search.parentId ?? null;
  const { view, sort, myUserId } = useBrowserView(search);
  const offline = useLiveStatus() !== 'online';
  // The shares come first even inside a folder: their grants give the keys its listing opens with.
  const shared = useQuery({ ...sharedQueryOptions(), refetchInterval: offline ? 5_000 : false });
  const folder = useFolderListing(SHARED_SCOPE, parentId, { poll: offline, enabled: parentId !== null && shared.isSuccess });
  const top: FolderListing | undefined = useMemo(
    () => (shared.data ? { folder: null, items: shared.data.items, ancestors: [], users: shared.data.users } : undefined),
    [shared.data],
  );
  const listing = parentId === null ? { ...shared, data: top } : folder;
  const data = listing.data;
  const sorted = useSortedItems(data, sort);
  const pages = usePages(sorted, search, onSearchChange);
  const { dialog, open: openDialog, close: closeDialog } = useDialogState();
  // Search covers what is shared with the user: the shared items and every shared folder's subtree.
  const folderIds = sharedFolderIds(shared.data);
  const folderKey = folderIds.join(',');
  const sharedData = shared.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: folderKey stands for folderIds' values
  const treeSource = useMemo(
    () => ({
      ...sharedTreeQueryOptions(folderIds),
      select: (subtrees: FolderListing[]) => mergeSharedTree(sharedData, subtrees),
      enabled: sharedData !== undefined,
    }),
    [folderKey, sharedData],
  );
  const finder = useTreeSearch(sort, treeSource);
  const sharedIds = useMemo(() => new Set(sharedData?.items.map((item) => item.id)), [sharedData]);
  const locationOf = finder.searching ? sharedLocationIn(finder.tree.data, sharedIds, SHARED_TITLE) : locationIn(data, undefined);

  useEffect(() => {
    if (parentId === null && shared.isError) toast('Error fetching files.', 'error');
  }, [parentId, shared.isError]);
  // A share revoked while its folder is open: its listing is refused, and FolderView says so
  // with the way back (rather than jumping to the top unexplained).

  const here = parentId === null ? null : (data?.folder ?? null);
  const rights =
    parentId === null
      ? { uploadBlocked: UPLOAD_BLOCKED_TEXT, newFolderBlocked: NEW_FOLDER_BLOCKED_TEXT }
      : here?.untrusted
        ? { uploadBlocked: UNTRUSTED_FOLDER_TEXT, newFolderBlocked: UNTRUSTED_FOLDER_TEXT }
        : editRights(parentId, here, myUserId);

  const go = (id: string | null) => {
    finder.setQuery('');
    onSearchChange({ parentId: id ?? undefined });
  };
  // Files open in the previewer, which cycles over the folder's files in the order shown.
  const { preview, openItem, onAction, onSelection } = useItemActions({
    shown: sorted,
    go,
    openDialog,
    scope: SHARED_SCOPE,
    onRemoveShare: (item) => {
      if (!myUserId) return;
      removeFromMyList(item.id, myUserId).then(
        () => {
          toast('Removed from your list', 'success');
          void queryClient.invalidateQueries({ queryKey: sharingKeys.shared, exact: true });
        },
        () => toast('Failed to remove the share. Please try again.', 'error'),
      );
    },
    onBlockSharer: (item) => {
      const name = shared.data?.users[item.ownerId] ?? 'the sharer';
      blockAccount(item.ownerId).then(
        () => {
          toast(`Blocked ${name}: their shares are hidden. Unblock them in your profile.`, 'success');
          void queryClient.invalidateQueries({ queryKey: sharingKeys.shared, exact: true });
          void queryClient.invalidateQueries({ queryKey: sharingKeys.blocks, exact: true });
        },
        () => toast('Could not block that account. Please try again.', 'error'),
      );
    },
  });
  const refresh = () => {
    if (parentId === null) void shared.refetch();
    else folder.refresh();
    finder.refresh();
    void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
  };
  const users = data?.users ?? {};
  // The shared item itself stays where its owner keeps it; a recipient may drop it from this list.
  const rules: ItemRules = useMemo(
    () =>
      parentId === null
        ? { moveBlocked: () => NO_EDIT_TEXT, removable: () => true, blockable: (item) => item.ownerId !== myUserId }
        : {},
    [parentId, myUserId],
  );
  // Moves inside a shared folder stay in it: the move dialog starts at the shared item shown first.
  const sharedRoot = parentId === null ? undefined : (folder.data?.ancestors[0] ?? folder.data?.folder ?? undefined);
  const moveRoot = sharedRoot ? { rootId: sharedRoot.id, rootLabel: sharedRoot.name ?? 'Shared folder' } : undefined;

  return (
    <BrowseScopeContext.Provider value={SHARED_SCOPE}>
      <ItemRulesContext.Provider value={rules}>
        <BrowserFrame
          active="shared"
          folderId={parentId}
          onNewFolder={() => openDialog({ kind: 'create' })}
          newFolderBlocked={rights.newFolderBlocked}
        >
          <BrowserMain>
            <BrowserHeader title={SHARED_TITLE}>
              <UploadButton blocked={rights.uploadBlocked} onClick={() => openDialog({ kind: 'upload' })} />
            </BrowserHeader>
            <BrowserToolbar>
              <BrowserPath
                crumbs={folderCrumbs(parentId === null ? undefined : folder.data, parentId)}
                onNavigate={go}
                onRefresh={refresh}
                busy={listing.isFetching || finder.tree.isFetching}
              />
              <BrowserControls search={finder.box} view={view} sort={sort} onSearchChange={onSearchChange} />
            </BrowserToolbar>
            {here?.untrusted && (
              <p className="browser__warning" role="alert">
                {UNTRUSTED_FOLDER_TEXT}
              </p>
            )}
            <FileDropZone
              parentId={parentId}
              scope={SHARED_SCOPE}
              items={sorted}
              folderName={here?.name ?? 'this folder'}
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
                onJump={(folderId) => go(sharedJumpTarget(finder.tree.data, folderId))}
                onOpenResult={(item) => preview.open(item, { fromSearch: true })}
                users={users}
                myUserId={myUserId}
                onOpen={openItem}
                onAction={onAction}
                onSelection={onSelection}
                onHome={() => go(null)}
                homeLabel="Back to Files Shared with Me"
                emptyText={parentId === null ? SHARED_EMPTY_TEXT : rights.uploadBlocked ? 'This folder is empty' : undefined}
                downloadBlocked={DOWNLOAD_BLOCKED}
              />
            </FileDropZone>
          </BrowserMain>
          {preview.element}
          <ItemDialogs
            dialog={dialog}
            onClose={closeDialog}
            openItems={data?.items}
            parentId={parentId}
            users={users}
            myUserId={myUserId}
            locationOf={locationOf}
            moveRoot={moveRoot}
          />
          {parentId !== null && !rights.uploadBlocked && (
            <UploadOverlay
              parentId={parentId}
              scope={SHARED_SCOPE}
              items={sorted}
              open={dialog.kind === 'upload'}
              onClose={() => {
                closeDialog();
                void queryClient.invalidateQueries({ queryKey: filesKeys.folder(SHARED_SCOPE, parentId), exact: true });
              }}
            />
          )}
        </BrowserFrame>
      </ItemRulesContext.Provider>
    </BrowseScopeContext.Provider>
  );
}

export const sharedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/shared',
  validateSearch: validateBrowserSearch,
  ...protectedPage(SharedPage),
});
