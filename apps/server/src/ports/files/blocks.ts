/** The blocks port: accounts a user takes no shares from (table `share_blocks`). */

/** A user (`userId`) does not want shares from another account (`blockedId`). */
export interface BlockRecord {
  userId: string;
  blockedId: string;
  createdAt: number;
}

export interface BlocksReader {
  /** The accounts the user blocks, oldest block first. */
  blocksOf(userId: string): Promise<BlockRecord[]>;
  /** Those of `userIds` who block `blockedId`. */
  blockersAmong(blockedId: string, userIds: readonly string[]): Promise<Set<string>>;
}

/** Changes inside a files transaction. */
export interface BlocksWriter {
  /** Adds the block unless it is there already; false when it was. */
  insertBlock(block: BlockRecord): Promise<boolean>;
  /** False when there was no such block. */
  deleteBlock(userId: string, blockedId: string): Promise<boolean>;
}
