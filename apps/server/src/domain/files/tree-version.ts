import type { FilesDeps } from './deps.ts';

/**
 * GET /api/file/tree-version (docs/protocol.md "Tree version"): the signed-in caller's own
 * counter, nothing of anyone else's (a link holder has no session, so no tree here).
 */
export async function treeVersionOf(deps: Pick<FilesDeps, 'store'>, userId: string): Promise<{ treeVersion: number }> {
  return { treeVersion: await deps.store.treeVersion(userId) };
}
