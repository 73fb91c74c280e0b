/**
 * Decrypting a run of ciphertext chunks as it streams in, for `get` (download.ts) and the WebDAV
 * bridge's ranges (range.ts): see decryptedBatches.
 */
import { CIPHER_CHUNK, chunkCipherRange, decryptChunkAt } from '@sealbox/crypto';
import { CliError, EXIT } from '../cli-error.ts';

/** Chunks decrypted at once by default (16 x 256 KiB). */
export const BATCH_CHUNKS = 16;

/**
 * The plaintext of `cipher`, which holds chunks [chunks.from, chunks.to) of a file of `plainSize`
 * bytes, BATCH_CHUNKS chunks at a time: the body
 * is read straight into one buffer and its chunks decrypted side by side, each authenticated with
 * its index and last flag (decryptChunkAt). A pipeThrough a decrypt stream, fed by the network's
 * small reads, went at half the speed (docs/benchmarks.md "bench/cli"). An answer that ends early
 * or runs on is an integrity error.
 */
export async function* decryptedBatches(
  cipher: ReadableStream<Uint8Array>,
  key: CryptoKey,
  nonce: Uint8Array,
  chunks: { from: number; to: number },
  plainSize: number,
  batchChunks = BATCH_CHUNKS,
): AsyncGenerator<Uint8Array> {
  const reader = cipher.getReader();
  try {
    yield* batches(reader, key, nonce, chunks, plainSize, batchChunks);
  } finally {
    // Stopped early (a reader that went away, an error): the rest is not fetched.
    await reader.cancel().catch(() => {});
  }
}

async function* batches(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  key: CryptoKey,
  nonce: Uint8Array,
  chunks: { from: number; to: number },
  plainSize: number,
  batchChunks: number,
): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(batchChunks * CIPHER_CHUNK);
  let index = chunks.from;
  let leftover: Uint8Array | undefined;
  while (index < chunks.to) {
    const count = Math.min(batchChunks, chunks.to - index);
    const want = chunkCipherRange(index + count - 1, plainSize).end - chunkCipherRange(index, plainSize).start;
    let fill = 0;
    while (fill < want) {
      let value = leftover;
      leftover = undefined;
      if (!value) {
        const read = await reader.read();
        if (read.done) throw new CliError('The file ended early.', EXIT.integrity);
        value = read.value;
      }
      const take = Math.min(value.length, want - fill);
      buffer.set(value.subarray(0, take), fill);
      fill += take;
      if (take < value.length) leftover = value.subarray(take);
    }
    const first = index;
    const plains = await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const range = chunkCipherRange(first + i, plainSize);
        const offset = range.start - chunkCipherRange(first, plainSize).start;
        return decryptChunkAt(key, nonce, first + i, buffer.subarray(offset, offset + range.end - range.start), plainSize);
      }),
    );
    const out = new Uint8Array(plains.reduce((sum, plain) => sum + plain.length, 0));
    let at = 0;
    for (const plain of plains) {
      out.set(plain, at);
      at += plain.length;
    }
    index += count;
    yield out;
  }
  if (leftover?.length || !(await reader.read()).done) {
    await reader.cancel().catch(() => {});
    throw new CliError('The file is longer than recorded.', EXIT.integrity);
  }
}
