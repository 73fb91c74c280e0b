/**
 * Blocked accounts (docs/protocol.md "Blocked accounts"): accounts whose shares the user does
 * not want. Their shares leave /shared and their changes are no longer announced, until the
 * block is lifted (Profile, "Blocked accounts").
 */
import { api, errorMessageOf } from '../../lib/api.ts';
import { HttpStatusError } from '../../lib/http-status-error.ts';

export interface BlockedAccount {
  userId: string;
  /** null when the server no longer knows the account's name. */
  username: string | null;
  createdAt: number;
}

/** GET /api/blocks, oldest block first. */
export async function listBlocks(): Promise<BlockedAccount[]> {
  const { data, error, status } = await api.api.blocks.get();
  if (error || !data) throw new HttpStatusError(status, errorMessageOf(error) ?? 'Could not load your blocked accounts.');
  const names = new Map(data.users.map((user) => [user.id, user.username]));
  return data.blocks.map((block) => ({ ...block, username: names.get(block.userId) ?? null }));
}

/** PUT /api/blocks/{userId}: blocking again is fine. */
export async function blockAccount(userId: string): Promise<void> {
  const { error, status } = await api.api.blocks({ userId }).put();
  if (error) throw new HttpStatusError(status, errorMessageOf(error) ?? 'Could not block that account.');
}

/** DELETE /api/blocks/{userId}; one already unblocked (404) counts as done. */
export async function unblockAccount(userId: string): Promise<void> {
  const { error, status } = await api.api.blocks({ userId }).delete();
  if (error && status !== 404) throw new HttpStatusError(status, errorMessageOf(error) ?? 'Could not unblock that account.');
}
