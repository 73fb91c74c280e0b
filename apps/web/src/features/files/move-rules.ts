/**
 * SPEC 5 (Move): the target must be a folder with the same owner, not the item itself (nor,
 * since a folder cannot contain itself, anything under it), and not the current parent. Moving
 * to the root requires the owner. The server refuses the same moves; the dialog says why first.
 */
import type { ItemView } from '../../model/items.ts';

export interface MoveTarget {
  /** null = the top level of the user's files. */
  folder: Pick<ItemView, 'id' | 'isDirectory' | 'ownerId' | 'editPermission'> | null;
  /** Ids of the folders from the top down to the target, the target included. */
  path: readonly string[];
}

export type MoveProblem =
  | 'not-a-folder'
  | 'itself'
  | 'descendant'
  | 'current-parent'
  | 'other-owner'
  | 'root-needs-owner'
  | 'no-permission';

export const MOVE_PROBLEM_TEXT: Record<MoveProblem, string> = {
  'not-a-folder': 'Files can only be moved into folders.',
  itself: 'A folder cannot be moved into itself.',
  descendant: 'A folder cannot be moved into one of its own subfolders.',
  'current-parent': 'The item is already in this folder.',
  'other-owner': 'Items can only be moved between folders of the same owner.',
  'root-needs-owner': 'Only the owner can move this to My Files.',
  'no-permission': 'You do not have permission to move items into this folder.',
};

/** Why `item` cannot go to `target` (null when the move is allowed). */
export function moveProblem(
  item: Pick<ItemView, 'id' | 'parentId' | 'ownerId'>,
  target: MoveTarget,
  myUserId: string | undefined,
): MoveProblem | null {
  const { folder, path } = target;
  if (folder === null) {
    if (item.ownerId !== myUserId) return 'root-needs-owner';
    if (item.parentId === null) return 'current-parent';
    return null;
  }
  if (!folder.isDirectory) return 'not-a-folder';
  if (folder.id === item.id) return 'itself';
  if (path.includes(item.id)) return 'descendant';
  if (folder.id === item.parentId) return 'current-parent';
  if (folder.ownerId !== item.ownerId) return 'other-owner';
  if (!folder.editPermission) return 'no-permission';
  return null;
}

/** Whether the dialog lets the user browse into `folder` (never into the item being moved). */
export function canBrowseInto(item: Pick<ItemView, 'id'>, folder: Pick<ItemView, 'id' | 'isDirectory'>): boolean {
  return folder.isDirectory && folder.id !== item.id;
}

/** Why a selection cannot go to `target`: the first item's problem (null when all may go). */
export function selectionMoveProblem(
  items: ReadonlyArray<Pick<ItemView, 'id' | 'parentId' | 'ownerId'>>,
  target: MoveTarget,
  myUserId: string | undefined,
): MoveProblem | null {
  for (const item of items) {
    const problem = moveProblem(item, target, myUserId);
    if (problem) return problem;
  }
  return null;
}
