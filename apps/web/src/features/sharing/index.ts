/**
 * Sharing, one folder per screen (docs/web-files.md "One browser, its modes"):
 * - share-dialog/: the owner's Share dialog, people and links;
 * - shared-with-me/: the shares of /shared and the folders below them, as one tree to browse and search;
 * - link-access/: a link's visitor: the key from the URL fragment, the link's info, the password prompt.
 * What several screens use stays here: the query keys (queries.ts) and blocking an account
 * (blocks-api.ts: Block sharer on /shared, the list on the profile).
 */
export { useLinkKey, type LinkKeyState } from './link-access/useLinkKey.ts';
export { useLinkAccess, type LinkAccess } from './link-access/useLinkAccess.ts';
export { LinkPasswordPrompt } from './link-access/LinkPasswordPrompt.tsx';
export { INVALID_PASSWORD_TEXT, LINK_ERROR_TEXT, PASSWORD_PROMPT_TEXT, type LinkInfo } from './link-access/link-api.ts';
export { blocksQueryOptions, linkQueryOptions, sharedQueryOptions, sharedTreeQueryOptions, sharingKeys } from './queries.ts';
export { blockAccount, unblockAccount, type BlockedAccount } from './blocks-api.ts';
export {
  fetchSharedSubtrees,
  mergeSharedTree,
  sharedFolderIds,
  sharedJumpTarget,
  sharedLocationIn,
} from './shared-with-me/shared-tree.ts';
export {
  SHARED_EMPTY_TEXT,
  UNTRUSTED_FOLDER_TEXT,
  fetchShared,
  removeFromMyList,
  type SharedListing,
} from './shared-with-me/shared-api.ts';
export { ShareDialog, type ShareDialogProps } from './share-dialog/ShareDialog.tsx';
export { expiryText } from './share-dialog/share-logic.ts';
