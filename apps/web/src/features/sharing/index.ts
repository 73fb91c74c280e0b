/**
 * Sharing (SPEC 2 /share, SPEC 6): the link key of /share, opened in the crypto worker, and a
 * link's access for its visitors (info, password prompt), and the owner's Share dialog (users
 * and links).
 */
export { useLinkKey, type LinkKeyState } from './useLinkKey.ts';
export { useLinkAccess, type LinkAccess } from './useLinkAccess.ts';
export { LinkPasswordPrompt } from './LinkPasswordPrompt.tsx';
export { INVALID_PASSWORD_TEXT, LINK_ERROR_TEXT, PASSWORD_PROMPT_TEXT, type LinkInfo } from './link-api.ts';
export { blocksQueryOptions, linkQueryOptions, sharedQueryOptions, sharedTreeQueryOptions, sharingKeys } from './queries.ts';
export { blockAccount, unblockAccount, type BlockedAccount } from './blocks-api.ts';
export { mergeSharedTree, sharedFolderIds, sharedJumpTarget, sharedLocationIn } from './shared-tree.ts';
export { SHARED_EMPTY_TEXT, UNTRUSTED_FOLDER_TEXT, fetchShared, removeFromMyList, type SharedListing } from './shared-api.ts';
export { ShareDialog, type ShareDialogProps } from './ShareDialog.tsx';
