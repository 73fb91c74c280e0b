import { type Bytes, own, u32be } from './bytes.ts';
import { type AesKey, NONCE_BYTES, TAG_BYTES, checkLength, importAesKey, newNonce } from './aead.ts';
import { fail } from './errors.ts';

/**
 * Chunked contents (docs/protocol.md): chunk i = AES-GCM(K, nonce_i, chunk, AAD = u32be(i) ||
 * u8(last)). The index in nonce and AAD stops reordering and splicing; the last flag stops
 * truncation.
 */
export const CHUNK = 256 * 1024;
export const CIPHER_CHUNK = CHUNK + TAG_BYTES;

function checkSize(size: number, field: string): void {
  if (!Number.isSafeInteger(size) || size < 0) fail('BAD_INPUT', `${field} must be a non-negative integer`);
}

/** An empty file is still one (empty, last) chunk. */
export function chunkCount(plainSize: number): number {
  checkSize(plainSize, 'plainSize');
  return Math.max(1, Math.ceil(plainSize / CHUNK));
}

export function ciphertextSize(plainSize: number): number {
  return plainSize + TAG_BYTES * chunkCount(plainSize);
}

export function plaintextSize(cipherSize: number): number {
  checkSize(cipherSize, 'cipherSize');
  const plain = cipherSize - TAG_BYTES * Math.max(1, Math.ceil(cipherSize / CIPHER_CHUNK));
  if (plain < 0 || ciphertextSize(plain) !== cipherSize) fail('BAD_INPUT', `${cipherSize} is not a valid ciphertext size`);
  return plain;
}

/** Byte range [start, end) of chunk `index` inside the blob, for an HTTP Range request. */
export function chunkCipherRange(index: number, plainSize: number): { start: number; end: number } {
  const count = chunkCount(plainSize);
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) fail('BAD_INPUT', `chunk ${index} is out of range`);
  const start = index * CIPHER_CHUNK;
  const plainLength = index === count - 1 ? plainSize - index * CHUNK : CHUNK;
  return { start, end: start + plainLength + TAG_BYTES };
}

/** The chunks, and their blob byte range [start, end), that hold plaintext bytes [from, to). */
export function cipherRangeForPlain(from: number, to: number, plainSize: number) {
  checkSize(from, 'from');
  if (!Number.isSafeInteger(to) || to <= from || to > plainSize) fail('BAD_INPUT', 'plaintext range is empty or out of bounds');
  const firstChunk = Math.floor(from / CHUNK);
  const lastChunk = Math.floor((to - 1) / CHUNK);
  return {
    firstChunk,
    lastChunk,
    start: chunkCipherRange(firstChunk, plainSize).start,
    end: chunkCipherRange(lastChunk, plainSize).end,
  };
}

/** A fresh file nonce for every upload: a (K, fileNonce) pair is never used twice. */
export function newFileNonce(): Bytes {
  return newNonce();
}

export function chunkNonce(fileNonce: Uint8Array, index: number): Bytes {
  checkLength(fileNonce, NONCE_BYTES, 'fileNonce');
  if (!Number.isSafeInteger(index) || index < 0 || index > 0xffffffff) fail('BAD_INPUT', 'chunk index out of range');
  const nonce = new Uint8Array(fileNonce);
  const counter = u32be(index);
  for (let j = 0; j < 4; j++) nonce[8 + j]! ^= counter[j]!;
  return nonce;
}

function chunkAad(index: number, last: boolean): Bytes {
  const aad = new Uint8Array(5);
  aad.set(u32be(index));
  aad[4] = last ? 1 : 0;
  return aad;
}

export async function encryptChunk(
  key: CryptoKey,
  fileNonce: Uint8Array,
  index: number,
  last: boolean,
  plain: Uint8Array,
): Promise<Bytes> {
  if (plain.length > CHUNK) fail('BAD_INPUT', 'chunk is larger than CHUNK');
  if (!last && plain.length !== CHUNK) fail('BAD_INPUT', 'only the last chunk may be short');
  const params = { name: 'AES-GCM', iv: chunkNonce(fileNonce, index), additionalData: chunkAad(index, last) };
  return new Uint8Array(await crypto.subtle.encrypt(params, key, own(plain)));
}

export async function decryptChunk(
  key: CryptoKey,
  fileNonce: Uint8Array,
  index: number,
  last: boolean,
  cipher: Uint8Array,
): Promise<Bytes> {
  if (cipher.length < TAG_BYTES || cipher.length > CIPHER_CHUNK || (!last && cipher.length !== CIPHER_CHUNK)) {
    fail('DECRYPT_FAILED', `chunk ${index} has the wrong length`);
  }
  const params = { name: 'AES-GCM', iv: chunkNonce(fileNonce, index), additionalData: chunkAad(index, last) };
  try {
    return new Uint8Array(await crypto.subtle.decrypt(params, key, own(cipher)));
  } catch {
    return fail('DECRYPT_FAILED', `chunk ${index} failed authentication`);
  }
}

/**
 * The AES-GCM tags of the chunks whose plaintext `plain` is, from chunk `firstChunk` of a file of
 * `plainSize` bytes: to check in this browser that a file is the one (K, fileNonce) already
 * encrypted (a resumed upload, docs/protocol.md "Part protocol"). Only the tags leave this
 * function, so ciphertext of a changed file under a nonce already used is never sent anywhere.
 */
export async function chunkTags(
  key: AesKey,
  fileNonce: Uint8Array,
  plainSize: number,
  firstChunk: number,
  plain: Uint8Array,
): Promise<Bytes> {
  const count = Math.ceil(plain.length / CHUNK) || 1;
  const last = chunkCount(plainSize) - 1;
  if (firstChunk + count - 1 > last) fail('BAD_INPUT', 'the chunks run past the end of the file');
  const cryptoKey = await importAesKey(key);
  const tags = new Uint8Array(count * TAG_BYTES);
  for (let j = 0; j < count; j++) {
    const index = firstChunk + j;
    const cipher = await encryptChunk(cryptoKey, fileNonce, index, index === last, plain.subarray(j * CHUNK, (j + 1) * CHUNK));
    tags.set(cipher.subarray(cipher.length - TAG_BYTES), j * TAG_BYTES);
  }
  return tags;
}

/** Random access: decrypts chunk `index` of a file of `plainSize` bytes, fetched alone by range. */
export async function decryptChunkAt(
  key: AesKey,
  fileNonce: Uint8Array,
  index: number,
  cipher: Uint8Array,
  plainSize: number,
): Promise<Bytes> {
  const { start, end } = chunkCipherRange(index, plainSize);
  if (cipher.length !== end - start) fail('DECRYPT_FAILED', `chunk ${index} has the wrong length`);
  return decryptChunk(await importAesKey(key), fileNonce, index, index === chunkCount(plainSize) - 1, cipher);
}

/**
 * Upload parts (docs/protocol.md, "Part protocol"): the blob is sent and stored in parts of
 * PART_CHUNKS whole chunks, so every part is retryable alone and starts on a chunk boundary.
 */
export const PART_CHUNKS = 32;
export const PART_BYTES = PART_CHUNKS * CIPHER_CHUNK;

/** Parts of a blob of `cipherSize` bytes; checks that the size is one a plaintext can produce. */
export function partCount(cipherSize: number): number {
  plaintextSize(cipherSize);
  return Math.ceil(cipherSize / PART_BYTES);
}

/** Byte range [start, end) of part `n` inside the blob. */
export function partRange(n: number, cipherSize: number): { start: number; end: number } {
  const count = partCount(cipherSize);
  if (!Number.isSafeInteger(n) || n < 0 || n >= count) fail('BAD_INPUT', `part ${n} is out of range`);
  const start = n * PART_BYTES;
  return { start, end: Math.min(cipherSize, start + PART_BYTES) };
}
