import { useEffect, useMemo, type ReactNode } from 'react';
import { createRoute, useLocation } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Card, Spinner } from '@sealbox/ui';
import type { KeyHandle } from '../crypto/client.ts';
import { linkScope } from '../model/browse-scope.ts';
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
  NEW_FOLDER_BLOCKED_TEXT,
  UPLOAD_BLOCKED_TEXT,
  UploadButton,
  linkCrumbs,
  locationIn,
  useBrowserView,
  useDialogState,
  useFolderListing,
  usePages,
  useSortedItems,
  useTreeSearch,
  nextBrowserSearch,
  treeQueryOptions,
  validateShareBrowserSearch,
  type FolderListing,
  type ItemView,
  type ShareBrowserSearch,
} from '../features/files/index.ts';
import {
  LINK_ERROR_TEXT,
  LinkPasswordPrompt,
  ShareDialog,
  sharingKeys,
  useLinkAccess,
  useLinkKey,
  type LinkInfo,
} from '../features/sharing/index.ts';
import { useLinkLiveUpdates } from '../features/live/index.ts';
import { DOWNLOAD_BLOCKED, FileDropZone, UploadOverlay } from '../features/transfers/index.ts';
import { useItemActions } from './item-actions.ts';
import { rootRoute } from './root.tsx';

export const INVALID_LINK_MESSAGE = 'This link is invalid or incomplete.';
export const LINK_KEY_REFUSED_TEXT = 'This link could not be verified.';

function ShareMessage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page page--narrow">
      <Card role="alert">
        <h1>{title}</h1>
        {children}
      </Card>
    </section>
  );
}

function Opening() {
  return (
    <section className="page page--center">
      <Spinner label="Opening link" />
    </section>
  );
}

/** SPEC 2 /share: the file browser in link mode, for anonymous visitors and signed-in users alike. */
function SharePage() {
  const { linkId } = shareRoute.useSearch();
  // The key travels in the fragment, which browsers never send to the server.
  const fragment = useLocation({ select: (location) => location.hash });
  const key = useLinkKey(fragment);

  if (!linkId) return <ShareMessage title={`${LINK_ERROR_TEXT} No link id provided.`} />;
  switch (key.status) {
    case 'checking':
      return <Opening />;
    case 'invalid':
      return (
        <ShareMessage title={INVALID_LINK_MESSAGE}>
          <p>Ask the person who shared it for the complete link, including everything after the “#”.</p>
        </ShareMessage>
      );
    case 'failed':
      return <ShareMessage title="Error decrypting file">{key.message && <p>{key.message}</p>}</ShareMessage>;
    case 'ready':
      return <LinkGate linkId={linkId} linkKey={key.key} />;
  }
}

/** The link's info, its password first when it has one, then the browser. */
function LinkGate({ linkId, linkKey }: { linkId: string; linkKey: KeyHandle }) {
  const access = useLinkAccess(linkId, linkKey);
  switch (access.status) {
    case 'loading':
      return <Opening />;
    case 'password':
      return <LinkPasswordPrompt onSubmit={access.submit} />;
    case 'failed':
      return (
        <ShareMessage title={LINK_ERROR_TEXT}>
          <p>This link does not exist, has expired or was removed.</p>
        </ShareMessage>
      );
    case 'refused':
      return (
        <ShareMessage title={LINK_KEY_REFUSED_TEXT}>
          <p>
            The server named an item that this link’s key does not belong to. Nothing was opened and nothing can be added through
            it. Ask the person who shared it for a new link.
          </p>
        </ShareMessage>
      );
    case 'ready':
      return <LinkBrowser linkId={linkId} info={access.info} />;
  }
}

/**
 * A link's items as shown: a link to one file lists that file (read-only: the linked item itself
 * is never renamed, moved or deleted through its link); inside a folder the server's edit flag
 * says what an editor link may change, and a viewer link changes nothing.
 */
function linkItems(listing: FolderListing | undefined, parentId: string | null, editor: boolean): FolderListing | undefined {
  if (!listing) return undefined;
  if (parentId === null && listing.folder && !listing.folder.isDirectory)
    return { ...listing, items: [{ ...listing.folder, editPermission: false }] };
  return {
    ...listing,
    items: listing.items.map((item: ItemView) => ({ ...item, editPermission: editor && item.editPermission })),
  };
}

function LinkBrowser({ linkId, info }: { linkId: string; info: LinkInfo }) {
  const search = shareRoute.useSearch();
  const navigate = shareRoute.useNavigate();
  const queryClient = useQueryClient();
  // The fragment (the link key) stays on every navigation inside the link.
  const onSearchChange = (patch: Partial<ShareBrowserSearch>) =>
    void navigate({ search: (prev) => nextBrowserSearch(prev, patch), hash: true });
  const parentId = search.parentId ?? null;
  const { view, sort, myUserId } = useBrowserView(search);
  // The link's own socket; when it closes for good (link gone, password changed) the link is
  // asked again, which shows the password prompt or the error. Polls while it is not online.
  const live = useLinkLiveUpdates(linkId, () => void queryClient.invalidateQueries({ queryKey: sharingKeys.link(linkId) }));
  const scope = useMemo(() => linkScope(linkId), [linkId]);
  const listing = useFolderListing(scope, parentId, { poll: live !== 'online' });
  // A listing refused (the link deleted, expired or its password changed: all answer 404) asks
  // the link again, as a closed socket does.
  useEffect(() => {
    if (listing.isError) void queryClient.invalidateQueries({ queryKey: sharingKeys.link(linkId) });
  }, [listing.isError, queryClient, linkId]);
  const editor = info.editPermission && info.isDirectory;
  const data = useMemo(() => linkItems(listing.data, parentId, editor), [listing.data, parentId, editor]);
  const sorted = useSortedItems(data, sort);
  const pages = usePages(sorted, search, onSearchChange);
  const { dialog, open: openDialog, close: closeDialog } = useDialogState();

  const finder = useTreeSearch(sort, treeQueryOptions(scope));
  const go = (id: string | null) => {
    finder.setQuery('');
    onSearchChange({ parentId: id === null || id === info.itemId ? undefined : id });
  };
  // Files open in the previewer, which cycles over the folder's files in the order shown.
  const { preview, openItem, onAction, onSelection } = useItemActions({ shown: sorted, go, openDialog, scope });
  const users = data?.users ?? {};
  const crumbs = linkCrumbs(listing.data, parentId, info.itemId);
  const locationOf = locationIn(listing.data, finder.tree.data, { rootId: info.itemId, rootLabel: crumbs[0]?.label ?? '…' });

  return (
    <BrowseScopeContext.Provider value={scope}>
      <BrowserFrame
        active="link"
        folderId={parentId}
        onNewFolder={() => openDialog({ kind: 'create' })}
        newFolderBlocked={editor ? undefined : NEW_FOLDER_BLOCKED_TEXT}
      >
        <BrowserMain>
          <BrowserHeader title="Shared Files">
            <UploadButton blocked={editor ? undefined : UPLOAD_BLOCKED_TEXT} onClick={() => openDialog({ kind: 'upload' })} />
          </BrowserHeader>
          <BrowserToolbar>
            <BrowserPath
              crumbs={crumbs}
              onNavigate={go}
              onRefresh={() => {
                void listing.refetch();
                finder.refresh();
              }}
              busy={listing.isFetching || finder.tree.isFetching}
            />
            <BrowserControls
              {...(info.isDirectory ? { search: finder.box } : {})}
              view={view}
              sort={sort}
              onSearchChange={onSearchChange}
            />
          </BrowserToolbar>
          <FileDropZone
            parentId={parentId ?? info.itemId}
            scope={scope}
            items={sorted}
            folderName={crumbs.at(-1)?.label ?? 'this folder'}
            blocked={editor ? undefined : UPLOAD_BLOCKED_TEXT}
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
              users={users}
              myUserId={myUserId}
              onOpen={openItem}
              onAction={onAction}
              onSelection={onSelection}
              onHome={() => go(null)}
              homeLabel="Back to the shared folder"
              emptyText={editor ? undefined : 'This folder is empty'}
              downloadBlocked={DOWNLOAD_BLOCKED}
            />
          </FileDropZone>
        </BrowserMain>
        {preview.element}
        <ItemDialogs
          dialog={dialog}
          onClose={closeDialog}
          openItems={data?.items}
          knownItems={finder.tree.data?.items}
          parentId={parentId ?? info.itemId}
          moveRoot={{ rootId: null, rootLabel: crumbs[0]?.label ?? '…' }}
          users={users}
          myUserId={myUserId}
          locationOf={locationOf}
        />
        {/* The owner, signed in, opening their own link may still share from here. */}
        {dialog.kind === 'share' && <ShareDialog open item={dialog.item} myUserId={myUserId} onClose={closeDialog} />}
        {editor && (
          <UploadOverlay
            parentId={parentId ?? info.itemId}
            scope={scope}
            items={sorted}
            open={dialog.kind === 'upload'}
            onClose={closeDialog}
          />
        )}
      </BrowserFrame>
    </BrowseScopeContext.Provider>
  );
}

export const shareRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/share',
  validateSearch: validateShareBrowserSearch,
  component: SharePage,
});
