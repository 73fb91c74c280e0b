/**
 * Decrypting a run of ciphertext chunks as it streams in, for `get` (download.ts) and the WebDAV
 * bridge's ranges (range.ts): see decryptedBatches.
 */
import { CIPHER_CHUNK, chunkCipherRange, decryptChunkAt } from '@sealbox/crypto';
import { CliError, EXIT } from '../cli-error.ts';

/** Chunks decrypted at once by default (16 x 256 KiB). */
export const BATCH_CHUNKS = 16;

/** One batch's plaintext, chunk by chunk (written with one writev, never joined). */
export type PlainBatch = Uint8Array[];

/**
 * The plaintext of `cipher`, which holds chunks [chunks.from, chunks.to) of a file of `plainSize`
 * bytes, `batchChunks` chunks at a time. The body is read straight into a batch buffer and its
 * chunks decrypted side by side, each authenticated with its index and last flag; while one batch
 * decrypts and is written, the next is read from the network (two buffers in turn, so a buffer is
 * refilled only once its batch has decrypted), and a batch is yielded as soon as it has. A pipeThrough a decrypt stream, fed by the network's small
 * reads, went at half the speed (docs/benchmarks.md "bench/cli"). An answer that ends early or
 * runs on is an integrity error; nothing after a chunk that fails is ever yielded.
 */
export async function* decryptedBatches(
  cipher: ReadableStream<Uint8Array>,
  key: CryptoKey,
  nonce: Uint8Array,
  chunks: { from: number; to: number },
  plainSize: number,
  batchChunks = BATCH_CHUNKS,
): AsyncGenerator<PlainBatch> {
  const reader = cipher.getReader();
  try {
    yield* batches(new ChunkReader(reader), key, nonce, chunks, plainSize, batchChunks);
  } finally {
    // Stopped early (a reader that went away, an error): the rest is not fetched.
    await reader.cancel().catch(() => {});
  }
}

/** Fills buffers from a body whose reads come in whatever sizes the network gives. */
class ChunkReader {
  private leftover: Uint8Array | undefined;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async fill(buffer: Uint8Array): Promise<void> {
    let fill = 0;
    while (fill < buffer.length) {
      let value = this.leftover;
      this.leftover = undefined;
      if (!value) {
        const read = await this.reader.read();
        if (read.done) throw new CliError('The file ended early.', EXIT.integrity);
        value = read.value;
      }
      const take = Math.min(value.length, buffer.length - fill);
      buffer.set(value.subarray(0, take), fill);
      fill += take;
      if (take < value.length) this.leftover = value.subarray(take);
    }
  }

  async atEnd(): Promise<boolean> {
    return !this.leftover?.length && (await this.reader.read()).done === true;
  }
}

/** Starts decrypting chunks [first, first + count) held in `buffer` (each checked with its index and last flag). */
function decryptBatch(key: CryptoKey, nonce: Uint8Array, first: number, count: number, buffer: Uint8Array, plainSize: number) {
  const base = chunkCipherRange(first, plainSize).start;
  const plains = Array.from({ length: count }, (_, i) => {
    const range = chunkCipherRange(first + i, plainSize);
    return decryptChunkAt(key, nonce, first + i, buffer.subarray(range.start - base, range.end - base), plainSize);
  });
  const all = Promise.all(plains);
  // Awaited one batch later: until then a failure must not count as unhandled.
  all.catch(() => {});
  return all;
}

async function* batches(
  source: ChunkReader,
  key: CryptoKey,
  nonce: Uint8Array,
  chunks: { from: number; to: number },
  plainSize: number,
  batchChunks: number,
): AsyncGenerator<PlainBatch> {
  const buffers = [new Uint8Array(batchChunks * CIPHER_CHUNK), new Uint8Array(batchChunks * CIPHER_CHUNK)];
  let index = chunks.from;
  let turn = 0;
  /** Reads the next batch into the other buffer and starts its decryption. */
  const next = async () => {
    const count = Math.min(batchChunks, chunks.to - index);
    const first = index;
    index += count;
    const want = chunkCipherRange(first + count - 1, plainSize).end - chunkCipherRange(first, plainSize).start;
    turn ^= 1;
    const buffer = buffers[turn]!.subarray(0, want);
    await source.fill(buffer);
    return decryptBatch(key, nonce, first, count, buffer, plainSize);
  };
  let reading = index < chunks.to ? next() : undefined;
  while (reading) {
    const decrypting = await reading;
    // The next batch is read while this one decrypts and is written; its buffer's last batch
    // was yielded (so decrypted) before this one was read.
    reading = index < chunks.to ? next() : undefined;
    // Stopped early, the read in flight must not count as an unhandled failure.
    reading?.catch(() => {});
    yield await decrypting;
  }
  if (!(await source.atEnd())) throw new CliError('The file is longer than recorded.', EXIT.integrity);
}

/** The bytes of a batch. */
export const batchLength = (batch: PlainBatch) => batch.reduce((sum, plain) => sum + plain.length, 0);
