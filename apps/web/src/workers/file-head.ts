/**
 * The decrypted start of a file: only the ciphertext chunks that cover its first bytes are
 * fetched (one Range request) and each is authenticated alone (docs/protocol.md: index and last flag in
 * the AAD). Grid thumbnails (thumbnails.ts) and the previewer's text view (preview.ts) read files
 * this way, so a large file is never fetched whole to show its beginning.
 */
import { CHUNK, chunkCipherRange, cipherRangeForPlain, decryptChunkAt } from '@sealbox/crypto';
import type { BrowseScope } from '../model/browse-scope.ts';
import { bytes } from './api.ts';
import type { CodedError } from './coded-error.ts';

export interface HeadTarget {
  id: string;
  /** The item's K (raw bytes; the caller keeps and wipes it). */
  key: Uint8Array;
  fileNonce: Uint8Array;
  /** Plaintext bytes of the whole file. */
  plainSize: number;
  /** Where it is reached (a link's data call carries its id). */
  scope: BrowseScope;
  /** An earlier version of the file: its own data URL. */
  versionId?: string | undefined;
}

/**
 * Plaintext of the first chunks covering `limit` bytes (whole chunks, up to the file's end).
 * Callers make sure that `plainSize` and `limit` are both above 0 (`limit` is rounded up).
 * A non-2xx answer throws `error('HTTP_<status>')`, a short one `error('TRUNCATED')`; tampering
 * rejects with the crypto package's DECRYPT_FAILED.
 */
export async function decryptHead(
  target: HeadTarget,
  limit: number,
  error: (code: string, message: string) => CodedError,
): Promise<Uint8Array<ArrayBuffer>> {
  const { plainSize } = target;
  const { lastChunk, end } = cipherRangeForPlain(0, Math.ceil(Math.min(limit, plainSize)), plainSize);
  const chunks = lastChunk + 1;
  const response = await bytes.fileData(target.scope, target.id, {
    range: { start: 0, end },
    ...(target.versionId ? { versionId: target.versionId } : {}),
  });
  if (!response.ok) throw error(`HTTP_${response.status}`, `Download failed (${response.status})`);
  let cipher = new Uint8Array(await response.arrayBuffer());
  // A 200 (no range support in between) carries the whole blob: keep what was asked for.
  if (response.status === 200 && cipher.length > end) cipher = cipher.slice(0, end);
  if (cipher.length !== end) throw error('TRUNCATED', 'The file ended early');

  const key = await crypto.subtle.importKey('raw', new Uint8Array(target.key), 'AES-GCM', false, ['decrypt']);
  const plainEnd = Math.min(plainSize, chunks * CHUNK);
  const out = new Uint8Array(plainEnd);
  await Promise.all(
    Array.from({ length: chunks }, async (_, i) => {
      const range = chunkCipherRange(i, plainSize);
      // Throws DECRYPT_FAILED on any tampering (index, last flag and tag are all authenticated).
      out.set(await decryptChunkAt(key, target.fileNonce, i, cipher.subarray(range.start, range.end), plainSize), i * CHUNK);
    }),
  );
  return out;
}
