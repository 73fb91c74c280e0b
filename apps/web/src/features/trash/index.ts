/**
 * The owner's trash (docs/web-files.md "Trash"): its calls (api.ts), its query (queries.ts) and
 * restoring with the duplicate-name question (restore.ts). The /trash screen is a mode of the one
 * file browser (features/files/modes/trash.ts); the storage meter and the delete dialogs read the
 * same query.
 */
export {
  MY_FILES_LABEL,
  TRASH_FETCH_ERROR_TEXT,
  deleteForever,
  emptyTrash,
  fetchTrash,
  pathAbove,
  restoreFromTrash,
  type TrashListing,
  type TrashSummary,
} from './api.ts';
export { trashKeys, trashQueryOptions, useTrash, useTrashSummary } from './queries.ts';
export { restoreItems, type RestoreOutcome } from './restore.ts';
