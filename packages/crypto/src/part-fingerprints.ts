/**
 * Part fingerprints (docs/protocol.md "Part protocol"): what a resumed upload compares to know
 * that the file it is about to encrypt again is the one it began with. A part's fingerprint is
 * the SHA-256 of the AES-GCM tags of its chunks: under one (K, fileNonce) each tag authenticates
 * its chunk's ciphertext, so the same plaintext gives the same tags and any other plaintext, in
 * practice, other ones. Only tags and their hash leave here, never a ciphertext made of a changed
 * file under a nonce already used.
 */
import type { AesKey } from './aead.ts';
import { TAG_BYTES } from './aead.ts';
import { toHex } from './bytes.ts';
import { CHUNK, CIPHER_CHUNK, PART_CHUNKS, chunkTags } from './content.ts';
import { fail } from './errors.ts';

/** The SHA-256 of a part's chunk tags, as lowercase hex. */
export async function tagsFingerprint(tags: Uint8Array): Promise<string> {
  if (tags.length === 0 || tags.length % TAG_BYTES !== 0) fail('BAD_INPUT', 'tags must be whole 16-byte tags');
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', tags as Uint8Array<ArrayBuffer>)));
}

/** The tags of the chunks a part's ciphertext holds: each chunk's last TAG_BYTES (the file's last chunk may be short). */
export function ciphertextTags(part: Uint8Array): Uint8Array {
  if (part.length < TAG_BYTES) fail('BAD_INPUT', 'a ciphertext part holds at least one tag');
  const count = Math.ceil(part.length / CIPHER_CHUNK);
  const last = part.length - (count - 1) * CIPHER_CHUNK;
  if (last < TAG_BYTES) fail('BAD_INPUT', 'a ciphertext part ends inside a tag');
  const tags = new Uint8Array(count * TAG_BYTES);
  for (let j = 0; j < count; j++) {
    const end = Math.min((j + 1) * CIPHER_CHUNK, part.length);
    tags.set(part.subarray(end - TAG_BYTES, end), j * TAG_BYTES);
  }
  return tags;
}

/** Plaintext bytes [start, end) of part `n` of a file of `plainSize` bytes. */
export function partPlainRange(n: number, plainSize: number): { start: number; end: number } {
  const start = n * PART_CHUNKS * CHUNK;
  return { start, end: Math.min(plainSize, start + PART_CHUNKS * CHUNK) };
}

/** Part `n`'s fingerprint from its plaintext `plain`, encrypted again here under (K, fileNonce). */
export async function partFingerprint(
  key: AesKey,
  fileNonce: Uint8Array,
  plainSize: number,
  n: number,
  plain: Uint8Array,
): Promise<string> {
  return tagsFingerprint(await chunkTags(key, fileNonce, plainSize, n * PART_CHUNKS, plain));
}
