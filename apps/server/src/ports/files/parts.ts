/** The parts port: the stored blobs of a file's ciphertext (table `item_parts`), part by part. */

export interface PartRecord {
  itemId: string;
  n: number;
  size: number;
  blobKey: string;
  createdAt: number;
}

export interface PartsReader {
  /** An item's parts, in order of their number. */
  parts(itemId: string): Promise<PartRecord[]>;
}

/** Changes inside a files transaction. */
export interface PartsWriter {
  /** Inserts or replaces part n of an item; returns the replaced part, if any. */
  putPart(part: PartRecord): Promise<PartRecord | undefined>;
  /** Deletes every part of these items and returns them. */
  deleteParts(itemIds: readonly string[]): Promise<PartRecord[]>;
  /** Every part of one item becomes the same part of another (a finished upload's, a new version). */
  moveParts(fromItemId: string, toItemId: string): Promise<void>;
}

/** What the sweep asks outside any transaction. */
export interface PartsSweep {
  /** Which of these blob keys a part row (of an item or of a version) names. */
  namedBlobKeys(keys: readonly string[]): Promise<Set<string>>;
}
