/**
 * A share link (docs/product.md "Screens" /share): the linked item and what lies below it, for
 * anonymous visitors and signed-in users alike, under the link's own key ring. A link to one file
 * lists that file. The server's edit flag says what an editor link may change, and a viewer link
 * changes nothing; the linked item itself may be renamed through an editor link but never moved or
 * deleted, as the server decides too (@sealbox/rules `changeRefusal`, docs/protocol.md "Who may do
 * what").
 */
import { useEffect, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { linkScope } from '../../../model/browse-scope.ts';
import type { ItemView } from '../../../model/items.ts';
import { type FolderListing, treeQueryOptions } from '../../items/index.ts';
import { useLinkLiveUpdates } from '../../live/index.ts';
import { type LinkInfo, sharingKeys } from '../../sharing/index.ts';
import { linkFacts, linkTitle } from './link-about.ts';
import type { BrowserMode } from '../browser-mode.ts';
import {
  NEW_FOLDER_BLOCKED_TEXT,
  UPLOAD_BLOCKED_TEXT,
  linkCrumbs,
  linkedItemOf,
  locationIn,
  treeSource,
  useFolderListing,
} from '../browser-state.ts';

/** The link's items as shown: a link to one file lists that file; a viewer link (`edits` false) edits nothing. */
export function linkItems(
  listing: FolderListing | undefined,
  parentId: string | null,
  edits: boolean,
): FolderListing | undefined {
  if (!listing) return undefined;
  const shown = (item: ItemView) => ({ ...item, editPermission: edits && item.editPermission });
  if (parentId === null && listing.folder && !listing.folder.isDirectory) return { ...listing, items: [shown(listing.folder)] };
  return { ...listing, items: listing.items.map(shown) };
}

/** The mode of link `linkId`, whose info (`GET /api/shared/{linkId}`) is `info`. */
export function linkMode(linkId: string, info: LinkInfo): BrowserMode {
  const scope = linkScope(linkId);
  // Uploads and new folders go into a folder: a link to one file has none to offer.
  const editor = info.editPermission && info.isDirectory;
  const itemRules = { linkedItem: (item: ItemView) => item.id === info.itemId, hideRefused: true };
  return {
    title: 'Shared Files',
    active: 'link',
    scope,
    homeLabel: 'Back to the shared folder',
    // The linked item is the link's top: the URL names no folder for it.
    parentParam: (id) => (id === null || id === info.itemId ? undefined : id),
    usePlace(parentId, { myUserId }) {
      const queryClient = useQueryClient();
      const askLinkAgain = () => void queryClient.invalidateQueries({ queryKey: sharingKeys.link(linkId) });
      // The link's own socket; when it closes for good (link gone, password changed) the link is
      // asked again, which shows the password prompt or the error. Polls while it is not online.
      const live = useLinkLiveUpdates(linkId, askLinkAgain);
      const listing = useFolderListing(scope, parentId, { poll: live !== 'online' });
      // A listing refused (the link deleted, expired or its password changed: all answer 404)
      // asks the link again, as a closed socket does.
      // biome-ignore lint/correctness/useExhaustiveDependencies: asking again is the effect, not a value read
      useEffect(() => {
        if (listing.isError) askLinkAgain();
      }, [listing.isError]);
      const data = useMemo(
        () => linkItems(listing.data, parentId, info.editPermission),
        [listing.data, parentId, info.editPermission],
      );
      const crumbs = linkCrumbs(listing.data, parentId, info.itemId);
      const rootLabel = crumbs[0]?.label ?? '…';
      const linked = linkedItemOf(listing.data, parentId, info.itemId);
      return {
        title: linkTitle(info.sharedBy, rootLabel),
        about: {
          facts: linkFacts(info),
          download: linked?.decrypted ? { item: linked, label: info.isDirectory ? 'Download all' : 'Download' } : undefined,
        },
        // An anonymous visitor has no places of their own: the sign-in is the navbar's.
        sidebar: myUserId !== undefined,
        listing: { ...listing, data },
        crumbs,
        rights: editor ? {} : { uploadBlocked: UPLOAD_BLOCKED_TEXT, newFolderBlocked: NEW_FOLDER_BLOCKED_TEXT },
        target: parentId ?? info.itemId,
        folderName: crumbs.at(-1)?.label ?? 'this folder',
        tree: treeSource(treeQueryOptions(scope)),
        searchable: info.isDirectory,
        locationOf: (tree) => locationIn(listing.data, tree, { rootId: info.itemId, rootLabel }),
        refresh: () => void listing.refetch(),
        emptyText: editor ? undefined : 'This folder is empty',
        moveRoot: { rootId: null, rootLabel },
        itemRules,
        // The owner, signed in, opening their own link may still share from here.
        share: true,
      };
    },
  };
}
