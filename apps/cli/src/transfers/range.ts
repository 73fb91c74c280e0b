/**
 * Plaintext bytes [from, to) of a remote file as a stream (the WebDAV bridge's GET with Range):
 * only the ciphertext chunks that hold them are fetched, in one Range request, and each is
 * authenticated alone with its index and last flag (decrypt-batches.ts), so a range that ends
 * before the file does still checks every chunk it returns. Memory: one batch of 1 MiB at a time.
 */
import { CHUNK, cipherRangeForPlain, fromBase64 } from '@sealbox/crypto';
import { CliError, EXIT } from '../cli-error.ts';
import { type Connection, linkQuery, refusal } from '../client.ts';
import type { RemoteItem } from '../remote-tree.ts';
import { decryptedBatches } from './decrypt-batches.ts';

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
  const chunks = { from: range.firstChunk, to: range.lastChunk + 1 };
  // Four chunks a batch: the bridge serves several clients at once, and its memory must stay low.
  const batches = decryptedBatches(response.body, key, fromBase64(item.fileNonce, 'fileNonce'), chunks, item.size, 4);
  // Where the next batch starts in the file's plaintext.
  let at = range.firstChunk * CHUNK;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      // The first and last chunks hold more than was asked for.
      for (const plain of next.value) {
        const piece = plain.subarray(Math.max(0, from - at), Math.max(0, Math.min(plain.length, to - at)));
        if (piece.length > 0) controller.enqueue(piece);
        at += plain.length;
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
