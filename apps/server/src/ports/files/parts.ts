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
}

/** What the sweep asks outside any transaction. */
export interface PartsSweep {
  /** Which of these blob keys a part row names. */
  namedBlobKeys(keys: readonly string[]): Promise<Set<string>>;
}
