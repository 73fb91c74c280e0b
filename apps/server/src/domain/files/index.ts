export { access, canEdit, type Principal, type Role } from './access.ts';
export { createItem, type CreateResult, type IncomingFile } from './create.ts';
export { changeItem, type ChangeRequest } from './changes.ts';
export { BATCH_MAX, deleteBatch, moveBatch, type BatchMove, type BatchResult } from './batch.ts';
export { deleteItem } from './deletion.ts';
export {
  deleteForever,
  deleteOrTrash,
  emptyTrash,
  listTrash,
  restoreItem,
  TRASH_PAGE_MAX,
  type RestoreTarget,
  type TrashList,
} from './trash.ts';
export { openFileData, parseRange, RangeNotSatisfiableError, type FileData } from './data.ts';
export { UPLOAD_TTL_MS, type FilesDeps, type FilesPorts } from './deps.ts';
export { createQuota, type Quota } from './quota.ts';
export { DEFAULT_MAX_ITEMS_PER_USER, MAX_TREE_DEPTH } from './limits.ts';
export {
  DEFAULT_LIMIT,
  listFiles,
  MAX_DEPTH,
  MAX_LIMIT,
  relistItems,
  type Listing,
  type ListOptions,
  type Relisted,
} from './listing.ts';
export { sweep, SHARED_SWEEP_GRACE_MS, type SweepReport } from './sweep.ts';
export { treeVersionOf } from './tree-version.ts';
export { chainTreeEvent, treeEventCopy } from './tree-events.ts';
export { ownTreePage, TREE_PAGE_DEFAULT, TREE_PAGE_MAX, type TreePage, type TreePageOptions } from './tree-pages.ts';
export { finishAccountDeletes } from './account-deletion.ts';
export { abortUpload, completeUpload, partNumber, receivePart, uploadStatus, type UploadStatus } from './uploads.ts';
export {
  UNFINISHED_MAX_LIMIT,
  unfinishedUploads,
  type UnfinishedUploads,
  type UnfinishedUploadView,
} from './unfinished-list.ts';
export { parseUploadMetadata, type UploadMetadata, type VersionMetadata } from './validation.ts';
export { uploadVersion } from './version-uploads.ts';
export {
  DEFAULT_MAX_VERSIONS,
  DEFAULT_VERSION_RETENTION_DAYS,
  deleteVersion,
  listVersions,
  openVersionData,
  restoreVersion,
  type VersionList,
  type VersionView,
} from './versions.ts';
export type { ItemView } from './view.ts';
export { linkAdmits, type LinkPrincipal, type UserPrincipal } from './access.ts';
export {
  changeLink,
  createLink,
  deleteLink,
  linksOf,
  MAX_LINK_EXPIRY_SECONDS,
  MAX_LINK_PASSWORD_CHARS,
  type LinkInfo,
  type LinkView,
} from './links.ts';
export { LINK_PROOF_LIFETIME_MS, linkInfo, linkPrincipal, openLink } from './link-access.ts';
export {
  linkState,
  linkSubscriber,
  subscriptionDeadline,
  subscriptionStanding,
  type LinkState,
  type LinkSubscription,
} from './link-subscriptions.ts';
export {
  accessList,
  changeUserShare,
  removeUserShare,
  shareWithUser,
  type AccessView,
  type SharedItemView,
} from './sharing.ts';
export { SHARED_MAX_LIMIT, SHARED_PAGE_MAX, sharedWithMe, type SharedPage } from './shared-list.ts';
export { blockAccount, listBlocks, MAX_BLOCKS_PER_USER, unblockAccount, type BlockView } from './blocks.ts';
export { LINK_EVENT_KINDS, SHARE_EVENT_KINDS } from './events.ts';
