/**
 * The tree-version port (docs/protocol.md "Tree version"): a per-owner counter the files store
 * bumps, in the same transaction, with every change to the items that owner owns.
 */
export interface TreeVersionReader {
  /** The owner's counter; 0 for an owner whose tree never changed (or no such user). */
  treeVersion(ownerId: string): Promise<number>;
}
