/**
 * Where an item may be moved (docs/product.md "Input rules" "Move", docs/protocol.md "Who may do
 * what"): the target is a folder of the same owner that the mover may edit, not the item itself,
 * nothing under it, and not its current parent; the top level only for the owner. The server
 * refuses these moves (apps/server/src/domain/files/move.ts, which adds the depth limit it alone
 * can measure); the web app's Move dialog says why before anything is sent, in the same words.
 */

export interface MovingItem {
  id: string;
  parentId: string | null;
  ownerId: string;
}

export interface MoveFolder {
  id: string;
  isDirectory: boolean;
  ownerId: string;
  /** Whether the mover may edit it (an owner or an editor). */
  editPermission: boolean;
}

export interface MoveTarget {
  /** null = the top level of the owner's files. */
  folder: MoveFolder | null;
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

/** Of the problems, those that are a missing right (the server's 403) rather than an impossible move (400). */
export const MOVE_FORBIDDEN: ReadonlySet<MoveProblem> = new Set(['other-owner', 'root-needs-owner', 'no-permission']);

/**
 * What the target's id alone refuses, before the target is looked up. `myUserId` is the mover
 * acting as themself (undefined for a link holder, who is never the owner).
 */
export function moveProblemByIds(
  item: MovingItem,
  targetId: string | null,
  myUserId: string | null | undefined,
): MoveProblem | null {
  if (targetId === item.parentId) return 'current-parent';
  if (targetId === item.id) return 'itself';
  if (targetId === null && item.ownerId !== myUserId) return 'root-needs-owner';
  return null;
}

/** Why `item` cannot go to `target` (null when the move is allowed). */
export function moveProblem(item: MovingItem, target: MoveTarget, myUserId: string | null | undefined): MoveProblem | null {
  const { folder, path } = target;
  const byIds = moveProblemByIds(item, folder?.id ?? null, myUserId);
  if (byIds !== null || folder === null) return byIds;
  if (!folder.isDirectory) return 'not-a-folder';
  if (!folder.editPermission) return 'no-permission';
  if (folder.ownerId !== item.ownerId) return 'other-owner';
  if (path.includes(item.id)) return 'descendant';
  return null;
}

/** Why a selection cannot go to `target`: the first item's problem (null when all may go). */
export function selectionMoveProblem(
  items: readonly MovingItem[],
  target: MoveTarget,
  myUserId: string | null | undefined,
): MoveProblem | null {
  for (const item of items) {
    const problem = moveProblem(item, target, myUserId);
    if (problem) return problem;
  }
  return null;
}

/** Whether the Move dialog lets the user browse into `folder` (never into the item being moved). */
export function canBrowseInto(item: Pick<MovingItem, 'id'>, folder: Pick<MoveFolder, 'id' | 'isDirectory'>): boolean {
  return folder.isDirectory && folder.id !== item.id;
}
