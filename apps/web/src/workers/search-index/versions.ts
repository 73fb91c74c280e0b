/**
 * Whether a `tree.changed` event (docs/protocol.md "Tree version and search index") can be
 * applied to an index at `indexVersion`: already in it, next in line, or past a gap (or naming too
 * many folders to refetch) so that only a rebuild makes the index current again.
 */
export type Bridge = 'included' | 'apply' | 'stale';

export interface TreeChange {
  treeVersion: number;
  treeSince: number;
  parentIds?: Array<string | null> | undefined;
}

export function bridge(indexVersion: number, event: TreeChange): Bridge {
  if (event.treeVersion <= indexVersion) return 'included';
  if (event.treeSince !== indexVersion || event.parentIds === undefined) return 'stale';
  return 'apply';
}
