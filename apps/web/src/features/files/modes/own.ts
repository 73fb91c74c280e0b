/** My Files (docs/product.md "Screens" /files): the signed-in user's own tree, from the top down. */
import { useEffect } from 'react';
import { OWN_SCOPE } from '../../../model/browse-scope.ts';
import { treeQueryOptions } from '../../items/index.ts';
import { useLiveStatus } from '../../live/index.ts';
import { noteOwnListing, startSearchIndex } from '../../search/index.ts';
import type { BrowserMode } from '../browser-mode.ts';
import { editRights, folderCrumbs, locationIn, treeSource, useFolderListing } from '../browser-state.ts';

export const ownMode: BrowserMode = {
  title: 'My Files',
  active: 'files',
  scope: OWN_SCOPE,
  indexedSearch: 'own',
  usePlace(parentId, { myUserId }) {
    // Polled every 5 s while the live socket is down (features/live).
    const listing = useFolderListing(OWN_SCOPE, parentId, { poll: useLiveStatus() !== 'online' });
    // The search index is opened (or built in the background) once the screen is up, and takes in
    // every whole folder shown: its names are the freshest there are.
    useEffect(startSearchIndex, []);
    const data = listing.data;
    useEffect(() => {
      if (data && !data.partial) noteOwnListing(parentId, data.items);
    }, [data, parentId]);
    return {
      listing,
      crumbs: folderCrumbs(listing.data, parentId),
      rights: editRights(parentId, listing.data?.folder ?? null, myUserId),
      target: parentId,
      folderName: parentId === null ? 'My Files' : (listing.data?.folder?.name ?? 'this folder'),
      tree: treeSource(treeQueryOptions(OWN_SCOPE)),
      locationOf: (tree) => locationIn(listing.data, tree),
      refresh: listing.refresh,
      share: true,
    };
  },
};
