/**
 * Files Shared with Me (docs/product.md "Screens" /shared): at the top, what other users shared
 * with the signed-in user (GET /api/shared, each grant checked in the crypto worker); inside, the
 * shared folders with the caller's role on them (docs/product.md "Roles"). Live events add and
 * remove shares without a reload.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { SHARED_SCOPE } from '../../../model/browse-scope.ts';
import type { ItemView } from '../../../model/items.ts';
import { PROFILE_QUERY_KEY } from '../../auth/index.ts';
import type { FolderListing } from '../../items/index.ts';
import { useLiveStatus } from '../../live/index.ts';
import { noteSharedItems, startSearchIndex, useSearchIndex } from '../../search/index.ts';
import {
  SHARED_EMPTY_TEXT,
  UNTRUSTED_FOLDER_TEXT,
  blockAccount,
  fetchSharedSubtrees,
  mergeSharedTree,
  removeFromMyList,
  sharedFolderIds,
  sharedJumpTarget,
  sharedLocationIn,
  sharedQueryOptions,
  sharedTreeQueryOptions,
  sharingKeys,
} from '../../sharing/index.ts';
import type { BrowserMode } from '../browser-mode.ts';
import {
  NEW_FOLDER_BLOCKED_TEXT,
  UPLOAD_BLOCKED_TEXT,
  editRights,
  folderCrumbs,
  locationIn,
  treeSource,
  useFolderListing,
} from '../browser-state.ts';
import { NO_EDIT_TEXT } from '../item-rules.ts';

export const SHARED_TITLE = 'Files Shared with Me';

/** Where a share lives, as Info says it: "Shared with me, from alice". */
export function sharedFromText(owner: string | undefined): string {
  return `Shared with me, from ${owner ?? 'an unknown user'}`;
}

export const sharedMode: BrowserMode = {
  title: SHARED_TITLE,
  active: 'shared',
  scope: SHARED_SCOPE,
  homeLabel: 'Back to Files Shared with Me',
  indexedSearch: 'shared',
  usePlace(parentId, { myUserId }) {
    const queryClient = useQueryClient();
    const offline = useLiveStatus() !== 'online';
    // The shares come first even inside a folder: their grants give the keys its listing opens with.
    // At the top, the first shares show while the rest are opened (docs/web-files.md "The first
    // shares of /shared"); a folder waits for the whole list unless it is one of the shares open.
    const shared = useQuery({
      ...sharedQueryOptions({ firstItems: parentId === null }),
      refetchInterval: offline ? 5_000 : false,
    });
    const sharedData = shared.data;
    const whole = sharedData !== undefined && sharedData.partial === undefined;
    const grantOpen = whole || (sharedData?.items.some((item) => item.id === parentId) ?? false);
    const folder = useFolderListing(SHARED_SCOPE, parentId, { poll: offline, enabled: parentId !== null && grantOpen });
    const top: FolderListing | undefined = useMemo(
      () =>
        sharedData
          ? {
              folder: null,
              items: sharedData.items,
              ancestors: [],
              users: sharedData.users,
              ...(sharedData.partial ? { partial: sharedData.partial } : {}),
            }
          : undefined,
      [sharedData],
    );
    const listing = parentId === null ? { ...shared, data: top } : folder;
    // Search covers what is shared with the user: the shared items and every shared folder's subtree.
    const folderIds = sharedFolderIds(sharedData);
    const folderKey = folderIds.join(',');
    // folderKey stands for folderIds' values: a new array of the same ids asks nothing again.
    const tree = useMemo(
      () =>
        treeSource({
          ...sharedTreeQueryOptions(folderIds),
          select: (subtrees: FolderListing[]) => mergeSharedTree(sharedData, subtrees),
          // Over the whole list only: the first shares would ask for subtrees twice.
          enabled: whole,
        }),
      [folderKey, sharedData, whole],
    );
    // docs/web-files.md "Search": opening /shared, and each change of what is shared, refreshes what
    // the search index holds of it (the shared items and their subtrees, for the ids the list just
    // gave); searches answer from the index meanwhile.
    useEffect(startSearchIndex, []);
    const indexReady = useSearchIndex().phase === 'ready';
    const sharedNow = useRef(sharedData);
    sharedNow.current = sharedData;
    const sharedKey = whole
      ? sharedData.items
          .map((item) => item.id)
          .sort()
          .join(',')
      : undefined;
    // sharedKey stands for the shared items (a refetch of the same list asks nothing again); the
    // index takes the whole list only.
    useEffect(() => {
      const listed = sharedNow.current;
      if (!listed || listed.partial || !indexReady) return;
      let current = true;
      void fetchSharedSubtrees(folderIds)
        .then((subtrees) => {
          if (current) noteSharedItems(mergeSharedTree(listed, subtrees).items);
        })
        .catch(() => {});
      return () => {
        current = false;
      };
    }, [sharedKey, indexReady]);
    const sharedIds = useMemo(() => new Set(sharedData?.items.map((item) => item.id)), [sharedData]);
    useEffect(() => {
      if (parentId === null && shared.isError) toast('Error fetching files.', 'error');
    }, [parentId, shared.isError]);
    // The shared item itself stays where its owner keeps it; a recipient may drop it from this list.
    const itemRules = useMemo(
      () =>
        parentId === null
          ? {
              moveBlocked: () => NO_EDIT_TEXT,
              removable: () => true,
              blockable: (item: ItemView) => item.ownerId !== myUserId,
            }
          : {},
      [parentId, myUserId],
    );

    const here = parentId === null ? null : (listing.data?.folder ?? null);
    const rights =
      parentId === null
        ? { uploadBlocked: UPLOAD_BLOCKED_TEXT, newFolderBlocked: NEW_FOLDER_BLOCKED_TEXT }
        : here?.untrusted
          ? { uploadBlocked: UNTRUSTED_FOLDER_TEXT, newFolderBlocked: UNTRUSTED_FOLDER_TEXT }
          : editRights(parentId, here, myUserId);
    // Moves inside a shared folder stay in it: the move dialog starts at the shared item shown first.
    const sharedRoot = parentId === null ? undefined : (folder.data?.ancestors[0] ?? folder.data?.folder ?? undefined);
    const refreshShared = () => void queryClient.invalidateQueries({ queryKey: sharingKeys.shared, exact: true });

    return {
      listing,
      crumbs: folderCrumbs(parentId === null ? undefined : folder.data, parentId),
      rights,
      target: parentId,
      folderName: here?.name ?? 'this folder',
      tree,
      locationOf: (searchTree, searching) => {
        if (searching) return sharedLocationIn(searchTree, sharedIds, SHARED_TITLE);
        // Info's Location: whose share it is, then the path inside it (never 'My Files').
        const from = (item: ItemView) => sharedFromText(listing.data?.users[item.ownerId]);
        if (!sharedRoot) return from;
        return (item) => locationIn(listing.data, undefined, { rootId: sharedRoot.parentId ?? '', rootLabel: from(item) })(item);
      },
      jumpTarget: sharedJumpTarget,
      refresh: () => {
        if (parentId === null) void shared.refetch();
        else folder.refresh();
        void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
      },
      warning: here?.untrusted ? UNTRUSTED_FOLDER_TEXT : undefined,
      emptyText: parentId === null ? SHARED_EMPTY_TEXT : rights.uploadBlocked ? 'This folder is empty' : undefined,
      moveRoot: sharedRoot ? { rootId: sharedRoot.id, rootLabel: sharedRoot.name ?? 'Shared folder' } : undefined,
      itemRules,
      knownItems: [],
      share: false,
      onRemoveShare: (item) => {
        if (!myUserId) return;
        removeFromMyList(item.id, myUserId).then(
          () => {
            toast('Removed from your list', 'success');
            refreshShared();
          },
          () => toast('Failed to remove the share. Please try again.', 'error'),
        );
      },
      onBlockSharer: (item) => {
        const name = sharedData?.users[item.ownerId] ?? 'the sharer';
        blockAccount(item.ownerId).then(
          () => {
            toast(`Blocked ${name}: their shares are hidden. Unblock them in your profile.`, 'success');
            refreshShared();
            void queryClient.invalidateQueries({ queryKey: sharingKeys.blocks, exact: true });
          },
          () => toast('Could not block that account. Please try again.', 'error'),
        );
      },
    };
  },
};
