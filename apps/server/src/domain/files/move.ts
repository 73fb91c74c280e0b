import { MOVE_FORBIDDEN, MOVE_PROBLEM_TEXT, moveProblem, moveProblemByIds, type MoveProblem } from '@sealbox/rules';
import type { FilesTransaction, ItemRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, canEdit, notFound, type AccessPath, type Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { lockedItem } from './editable.ts';
import { audienceOf, itemEvent, mergeAudiences } from './events.ts';
import { checkDepth, MAX_TREE_DEPTH } from './limits.ts';
import { invalid } from './validation.ts';
import { toItemView, type ItemView } from './view.ts';

/**
 * docs/product.md "Input rules" "Move", the rule both sides share (@sealbox/rules `moveProblem`, in
 * the web app's words): the target is a folder with the same owner that the mover may edit, not the
 * item itself, not one of its descendants and not the current parent; the top level only for the
 * owner. Here also the moved subtree must still end within MAX_TREE_DEPTH. The client re-wrapped
 * the item's key for the new parent; the new encryptedKey and keyNonce replace the old.
 */
export function moveItem(
  deps: FilesDeps,
  principal: Principal,
  id: string,
  parentId: string | null,
  encryptedKey: string,
  keyNonce: string,
): Promise<ItemView> {
  return deps.store.transaction((tx) => moveIn(tx, deps, principal, id, parentId, encryptedKey, keyNonce));
}

/**
 * What a batch's transaction has read and locked for the moves before: the owners it holds, and
 * the target folder with its path, read under its owner's lock (the same for every item).
 */
export interface MoveMemo {
  held: Set<string>;
  targets: Map<string, { target: ItemRecord; path: AccessPath | null }>;
}

export const newMoveMemo = (): MoveMemo => ({ held: new Set(), targets: new Map() });

/** The target folder and the principal's path to it, from the memo when it was read under its owner's lock. */
async function targetOf(tx: FilesTransaction, principal: Principal, parentId: string, memo?: MoveMemo) {
  const kept = memo?.targets.get(parentId);
  if (kept) return kept;
  const target = await tx.item(parentId);
  const path = target ? await accessPath(tx, principal, target) : null;
  if (target && memo?.held.has(target.ownerId)) memo.targets.set(parentId, { target, path });
  return { target, path };
}

/**
 * The move inside `tx`, which a batch shares between many items (with its `memo`): every check
 * comes before the one write, so a refused item leaves nothing behind in it.
 */
export async function moveIn(
  tx: FilesTransaction,
  deps: Pick<FilesDeps, 'clock'>,
  principal: Principal,
  id: string,
  parentId: string | null,
  encryptedKey: string,
  keyNonce: string,
  memo?: MoveMemo,
): Promise<ItemView> {
  const { item, role, ancestors } = await lockedItem(tx, principal, id, 'move', memo?.held);
  // Only a signed-in user acting as themself can be the owner (a link holder never is).
  const mover = principal.kind === 'user' ? principal.userId : null;
  refuse(moveProblemByIds(item, parentId, mover));
  let newAncestors: ItemRecord[] = [];
  if (parentId !== null) {
    const { target, path } = await targetOf(tx, principal, parentId, memo);
    if (!target || path === null) throw notFound('Target folder');
    const folder = { ...target, editPermission: canEdit(path.role) };
    refuse(moveProblem(item, { folder, path: [...path.ancestors.map((a) => a.id).reverse(), target.id] }, mover));
    // The item lands one level below the target, and its subtree's deepest item with it.
    const targetLevel = path.ancestors.length + 1;
    checkDepth(targetLevel + 1);
    if (item.isDirectory) checkDepth(targetLevel + (await tx.subtreeHeight(item.id, MAX_TREE_DEPTH - targetLevel)));
    newAncestors = [target, ...path.ancestors];
  }
  const moved: ItemRecord = { ...item, parentId, encryptedKey, keyNonce, modifiedAt: deps.clock() };
  await tx.updateItem(id, { parentId, encryptedKey, keyNonce, modifiedAt: moved.modifiedAt });
  // Both folders' listings changed; whoever could see it before or can now hears of both.
  const audience = mergeAudiences(await audienceOf(tx, item, ancestors), await audienceOf(tx, moved, newAncestors));
  tx.publish(itemEvent('item.moved', moved, audience, item.parentId));
  tx.publish(itemEvent('item.moved', moved, audience, parentId));
  return toItemView(moved, role);
}

/** A move the rule refuses: 403 for a missing right, 400 for a move that cannot be. */
function refuse(problem: MoveProblem | null): void {
  if (problem === null) return;
  const text = MOVE_PROBLEM_TEXT[problem];
  throw MOVE_FORBIDDEN.has(problem) ? new DomainError('FORBIDDEN', text) : invalid(text);
}
