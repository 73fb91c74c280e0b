/**
 * Where picked or dropped files go: the open folder (through a share link on /share). The one
 * path from a pick or a drop to the transfers panel: SPEC 5's checks, the duplicate-name
 * question, then the uploads start at once.
 */
import { useRef } from 'react';
import { useProfile } from '../auth/index.ts';
import { MSG_NO_FILE, MSG_PROFILE_LOADING } from '../../model/transfer-plan.ts';
import { askDuplicate } from './DuplicateNameDialog.tsx';
import { uploadInto, type ExistingItem } from './upload-names.ts';

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
  // The listing as it is when a pick's turn comes, not when it was dropped (uploadInto), while
  // the same folder is open.
  const listed = useRef({ parentId, linkId, items });
  listed.current = { parentId, linkId, items };
  const existing = () => {
    const now = listed.current;
    return (now.parentId === parentId && now.linkId === linkId ? now.items : items) ?? [];
  };
  return async (files) => {
    if (files.length === 0) return MSG_NO_FILE;
    if (!profile && !linkId) return MSG_PROFILE_LOADING;
    await uploadInto(files, { parentId, linkId }, existing, askDuplicate);
    return undefined;
  };
}
