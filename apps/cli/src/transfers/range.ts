/**
 * Plaintext bytes [from, to) of a remote file as a stream (the WebDAV bridge's GET with Range):
 * only the ciphertext chunks that hold them are fetched, in one Range request, and each is
 * authenticated alone with its index and last flag (decryptChunkAt), so a range that ends before
 * the file does still checks every chunk it returns. Memory: one chunk at a time.
 */
import { CHUNK, chunkCipherRange, cipherRangeForPlain, decryptChunkAt, fromBase64 } from '@sealbox/crypto';
import { CliError, EXIT } from '../cli-error.ts';
import { type Connection, linkQuery, refusal } from '../client.ts';
import type { RemoteItem } from '../remote-tree.ts';

export async function decryptedRange(
  conn: Connection,
  item: RemoteItem,
  from: number,
  to: number,
): Promise<ReadableStream<Uint8Array>> {
  if (!item.key || !item.fileNonce) throw new CliError('Its key did not open.', EXIT.integrity);
  if (to <= from) return new ReadableStream({ start: (controller) => controller.close() });
  const range = cipherRangeForPlain(from, to, item.size);
  const response = await fetch(`${conn.server}/api/file/data/${encodeURIComponent(item.id)}${linkQuery(conn)}`, {
    headers: { cookie: conn.cookie, range: `bytes=${range.start}-${range.end - 1}` },
  }).catch(() => {
    throw new CliError(`Cannot reach ${conn.server}.`, EXIT.network);
  });
  if (response.status !== 206 || !response.body)
    throw refusal(response.status, await response.json().catch(() => undefined), response);
  const key = await crypto.subtle.importKey('raw', new Uint8Array(item.key), 'AES-GCM', false, ['decrypt']);
  const nonce = fromBase64(item.fileNonce, 'fileNonce');
  const reader = response.body.getReader();
  const { size } = item;
  let index = range.firstChunk;
  let held = new Uint8Array(0);

  /** The next whole ciphertext chunk, or undefined at the end of the range. */
  const nextChunk = async (): Promise<Uint8Array | undefined> => {
    if (index > range.lastChunk) return undefined;
    const { start, end } = chunkCipherRange(index, size);
    const length = end - start;
    while (held.length < length) {
      const { done, value } = await reader.read();
      if (done) throw new CliError('The file ended early.', EXIT.integrity);
      const joined = new Uint8Array(held.length + value.length);
      joined.set(held);
      joined.set(value, held.length);
      held = joined;
    }
    const chunk = held.subarray(0, length);
    held = held.slice(length);
    return chunk;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const cipher = await nextChunk();
      if (!cipher) {
        await reader.cancel().catch(() => {});
        controller.close();
        return;
      }
      const plain = await decryptChunkAt(key, nonce, index, cipher, size);
      // The first and last chunks hold more than was asked for.
      const chunkStart = index * CHUNK;
      controller.enqueue(plain.subarray(Math.max(0, from - chunkStart), Math.min(plain.length, to - chunkStart)));
      index++;
    },
    async cancel() {
      await reader.cancel().catch(() => {});
    },
  });
}
