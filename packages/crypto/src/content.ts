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

export interface StreamOptions {
  /** Resume an interrupted transfer at this chunk; the input must start at that chunk's first byte. */
  startChunk?: number;
}

/** AES-GCM calls kept in flight per stream: WebCrypto works off-thread, so one await per chunk idles it. */
export const PIPELINE_DEPTH = 3;

/**
 * Re-chunks any input into fixed-size pieces. A full piece is held until more input arrives
 * (then it is not last) or the input ends (then it is), so the last flag is always right.
 *
 * Up to PIPELINE_DEPTH pieces are processed at once, and each result is emitted as soon as it and
 * every earlier one are done, in input order. Emission runs on one promise chain: once a piece
 * fails, every later link rejects without emitting, so nothing after a failing chunk ever leaves
 * the stream, and no further piece is started.
 *
 * Copies: a piece lying whole inside one input array, with more input after it, is handed to
 * WebCrypto as a view (which copies it synchronously); only pieces that straddle input arrays, or
 * that might be the last, are gathered in one reused buffer of `pieceSize`.
 */
function chunkingStream(
  pieceSize: number,
  key: AesKey,
  fileNonce: Uint8Array,
  options: StreamOptions,
  process: (key: CryptoKey, fileNonce: Uint8Array, index: number, last: boolean, piece: Uint8Array) => Promise<Bytes>,
  beforeLast: (fill: number) => void,
): TransformStream<Uint8Array, Uint8Array> {
  checkLength(fileNonce, NONCE_BYTES, 'fileNonce');
  // A copy: the caller may reuse its array while the stream still runs.
  const nonce = new Uint8Array(fileNonce);
  let cryptoKey: CryptoKey;
  let buffer = new Uint8Array(pieceSize);
  let fill = 0;
  let index = options.startChunk ?? 0;
  /** Emissions not yet done, oldest first; each removes itself when it has enqueued. */
  const waiting: Promise<void>[] = [];
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  const start = (controller: TransformStreamDefaultController<Uint8Array>, last: boolean, piece: Uint8Array) => {
    const result = process(cryptoKey, nonce, index++, last, piece);
    const emitted = chain.then(async () => {
      const bytes = await result;
      void waiting.shift(); // this emission, done: it leaves the window
      controller.enqueue(bytes);
    });
    void emitted.catch((error: unknown) => {
      failure ??= { error };
    });
    result.catch(() => {}); // reported through `emitted`; this only stops an early "unhandled rejection"
    waiting.push(emitted);
    chain = emitted;
  };
  const room = async () => {
    if (failure) throw failure.error;
    if (waiting.length >= PIPELINE_DEPTH) await waiting[0];
  };
  const feed = (data: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void | Promise<void> => {
    if (failure) throw failure.error;
    let offset = 0;
    while (offset < data.length) {
      if (fill === pieceSize) {
        // WebCrypto copies its input synchronously, so the buffer can be reused at once.
        start(controller, false, buffer);
        fill = 0;
      } else if (fill === 0 && data.length - offset > pieceSize) {
        // A whole piece with input after it: not the last one, and no gathering needed.
        start(controller, false, data.subarray(offset, offset + pieceSize));
        offset += pieceSize;
      } else {
        const n = Math.min(pieceSize - fill, data.length - offset);
        buffer.set(data.subarray(offset, offset + n), fill);
        fill += n;
        offset += n;
        continue;
      }
      if (waiting.length >= PIPELINE_DEPTH) {
        const rest = data.subarray(offset);
        return room().then(() => feed(rest, controller));
      }
    }
  };
  return new TransformStream({
    async start() {
      cryptoKey = await importAesKey(key);
    },
    // Synchronous unless the window is full: most input pieces only fill the buffer, and an
    // async step per piece is a measurable share of the work at 64 KiB pieces.
    transform: (data, controller) => feed(data, controller),
    async flush(controller) {
      if (failure) throw failure.error;
      beforeLast(fill);
      start(controller, true, buffer.subarray(0, fill));
      await chain;
      buffer = new Uint8Array(0);
    },
  });
}

/** Plaintext in, blob bytes out. Use a fresh `newFileNonce()` for every new upload. */
export function createEncryptStream(
  key: AesKey,
  fileNonce: Uint8Array,
  options: StreamOptions = {},
): TransformStream<Uint8Array, Uint8Array> {
  return chunkingStream(CHUNK, key, fileNonce, options, encryptChunk, () => {});
}

/** Blob bytes in, plaintext out; errors with DECRYPT_FAILED or TRUNCATED on any tampering. */
export function createDecryptStream(
  key: AesKey,
  fileNonce: Uint8Array,
  options: StreamOptions = {},
): TransformStream<Uint8Array, Uint8Array> {
  return chunkingStream(CIPHER_CHUNK, key, fileNonce, options, decryptChunk, (fill) => {
    if (fill < TAG_BYTES) fail('TRUNCATED', 'the encrypted stream ended before its last chunk');
  });
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
