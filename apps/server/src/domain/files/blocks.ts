import { USER_NOT_FOUND_TEXT } from '@sealbox/rules';
import type { UserSummary } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import type { FilesDeps } from './deps.ts';
import { blocksChanged } from './events.ts';
import { invalid, uuid } from './validation.ts';

/**
 * Blocked accounts (docs/protocol.md "Blocked accounts"): a user stops shares from an account
 * that floods their "Shared with me" (the list, and the RSA work of opening each grant, are
 * otherwise the sharer's to inflate). Shares on items the blocked account owns are not listed
 * for the user (FilesReader.sharedWith) and no event about those items reaches them (events.ts
 * `unblocked`). New shares from it are taken as before and stay hidden: refusing them would tell
 * the sharer they are blocked. Lifting the block shows them all again. A block takes no access
 * away (only the owner revokes) and changes nothing the blocked account sees.
 */

/** More than anyone blocks by hand; the list is read whole. */
export const MAX_BLOCKS_PER_USER = 1000;

export interface BlockView {
  userId: string;
  createdAt: number;
}

/** GET /api/blocks: the caller's blocks, oldest first, with who they are. */
export async function listBlocks(deps: FilesDeps, callerId: string): Promise<{ blocks: BlockView[]; users: UserSummary[] }> {
  const blocks = await deps.store.blocksOf(callerId);
  return {
    blocks: blocks.map((block) => ({ userId: block.blockedId, createdAt: block.createdAt })),
    users: await deps.store.userSummaries(blocks.map((block) => block.blockedId)),
  };
}

/** PUT /api/blocks/{userId}: blocks the account (again: nothing changes). */
export async function blockAccount(deps: FilesDeps, callerId: string, userId: unknown): Promise<void> {
  const blockedId = uuid(userId, 'userId');
  if (blockedId === callerId) throw invalid('You cannot block yourself');
  await deps.store.transaction(async (tx) => {
    // The caller's row lock makes the count and the insert one step across instances.
    await tx.lockOwner(callerId);
    if ((await tx.publicUsers([blockedId])).length === 0) throw new DomainError('NOT_FOUND', USER_NOT_FOUND_TEXT);
    const blocks = await tx.blocksOf(callerId);
    if (blocks.some((block) => block.blockedId === blockedId)) return;
    if (blocks.length >= MAX_BLOCKS_PER_USER) {
      throw new DomainError('CONFLICT', `You can block at most ${MAX_BLOCKS_PER_USER} accounts`);
    }
    await tx.insertBlock({ userId: callerId, blockedId, createdAt: deps.clock() });
    tx.publish(blocksChanged(callerId));
  });
}

/** DELETE /api/blocks/{userId}: lifts the block; 404 when there is none. */
export async function unblockAccount(deps: FilesDeps, callerId: string, userId: unknown): Promise<void> {
  const blockedId = uuid(userId, 'userId');
  await deps.store.transaction(async (tx) => {
    if (!(await tx.deleteBlock(callerId, blockedId))) throw new DomainError('NOT_FOUND', 'This account is not blocked');
    tx.publish(blocksChanged(callerId));
  });
}
