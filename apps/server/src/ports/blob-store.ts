/** Inclusive byte offsets, like an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export type BlobBody = ReadableStream<Uint8Array> | Uint8Array;

/**
 * Storage of opaque encrypted blobs under server-chosen keys ([A-Za-z0-9_-], 8-128 chars).
 * A put is all-or-nothing: until it resolves no reader can see the key's new content.
 * Missing keys fail with DomainError NOT_FOUND; a range outside the blob with RANGE_NOT_SATISFIABLE.
 */
export interface BlobStore {
  put(key: string, body: BlobBody): Promise<{ size: number }>;
  get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  size(key: string): Promise<number>;
  exists(key: string): Promise<boolean>;
  /** Succeeds when the key is already gone. */
  delete(key: string): Promise<void>;
  /** Every stored key starting with prefix, in no particular order (for the orphan sweep). */
  list(prefix?: string): AsyncIterable<string>;
  health(): Promise<void>;
}
