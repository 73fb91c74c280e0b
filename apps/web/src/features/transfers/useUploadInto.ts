/**
 * Where picked or dropped files go: the open folder (through a share link on /share). The one
 * path from a pick or a drop to the transfers panel: docs/product.md "Input rules" checks, the
 * duplicate-name question, then the uploads start at once.
 */
import { useRef } from 'react';
import { useProfile } from '../auth/index.ts';
import type { BrowseScope } from '../../model/browse-scope.ts';
import { MSG_NO_FILE, MSG_PROFILE_LOADING } from '../../model/transfer-plan.ts';
import { askDuplicate } from './DuplicateNameDialog.tsx';
import { uploadInto, type ExistingItem } from './upload-names.ts';

export interface UploadTarget {
  parentId: string | null;
  /** Where the folder is browsed: through a share link (an editor link), the visitor may have no account. */
  scope: BrowseScope;
  /** Every item of the open folder (all pages), whose names a new file must not take silently. */
  items?: readonly ExistingItem[] | undefined;
}

/**
 * Returns `upload(files)`, which resolves with docs/product.md "Input rules" message when nothing
 * could start.
 */
export function useUploadInto({ parentId, scope, items }: UploadTarget): (files: readonly File[]) => Promise<string | undefined> {
  const profile = useProfile();
  // The listing as it is when a pick's turn comes, not when it was dropped (uploadInto), while
  // the same folder is open.
  const listed = useRef({ parentId, scope, items });
  listed.current = { parentId, scope, items };
  const existing = () => {
    const now = listed.current;
    return (now.parentId === parentId && now.scope === scope ? now.items : items) ?? [];
  };
  return async (files) => {
    if (files.length === 0) return MSG_NO_FILE;
    if (!profile && scope.kind !== 'link') return MSG_PROFILE_LOADING;
    await uploadInto(files, { parentId, scope }, existing, askDuplicate);
    return undefined;
  };
}
