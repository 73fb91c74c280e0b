/**
 * Where picked or dropped files go: the open folder (through a share link on /share). The one
 * path from a pick or a drop to the transfers panel: SPEC 5's checks, the duplicate-name
 * question, then the uploads start at once.
 */
import { useProfile } from '../auth/index.ts';
import { MSG_NO_FILE, MSG_PROFILE_LOADING } from '../../model/transfer-plan.ts';
import { askDuplicate } from './DuplicateNameDialog.tsx';
import { namesBeingUploaded, startUploads } from './transfer-store.ts';
import { planUploads, type ExistingItem } from './upload-names.ts';

export interface UploadTarget {
  parentId: string | null;
  /** Uploads go through this share link (an editor link; the visitor may have no account). */
  linkId?: string | undefined;
  /** Every item of the open folder (all pages), whose names a new file must not take silently. */
  items?: readonly ExistingItem[] | undefined;
}

/** Returns `upload(files)`, which resolves with SPEC 5's message when nothing could start. */
export function useUploadInto({
  parentId,
  linkId,
  items,
}: UploadTarget): (files: readonly File[]) => Promise<string | undefined> {
  const profile = useProfile();
  return async (files) => {
    if (files.length === 0) return MSG_NO_FILE;
    if (!profile && !linkId) return MSG_PROFILE_LOADING;
    const plans = await planUploads(files, items ?? [], namesBeingUploaded(parentId), askDuplicate);
    if (plans.length > 0) startUploads(plans, parentId, linkId);
    return undefined;
  };
}
