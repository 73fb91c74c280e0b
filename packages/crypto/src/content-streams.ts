import type { Bytes } from './bytes.ts';
import { type AesKey, NONCE_BYTES, TAG_BYTES, checkLength, importAesKey } from './aead.ts';
import { CHUNK, CIPHER_CHUNK, decryptChunk, encryptChunk } from './content.ts';
import { fail } from './errors.ts';

/**
 * Streaming encryption and decryption of chunked contents (docs/protocol.md "Contents").
 *
 * The core is pull-based: `encryptBody` / `decryptBody` read their source themselves and answer a
 * ReadableStream, with no writable side and no pipe in between. Measured in Chromium
 * (docs/benchmarks.md "bench/crypto"), every input piece through a TransformStream's write, read
 * and backpressure promises cost 10-25 % of the raw chunk calls' speed at 64 KiB pieces; a
 * reader costs one `read()` per piece. `createEncryptStream` / `createDecryptStream` wrap the same
 * core for callers that pipe.
 */

export interface StreamOptions {
  /** Resume an interrupted transfer at this chunk; the input must start at that chunk's first byte. */
  startChunk?: number;
}

/** AES-GCM calls kept in flight per stream: WebCrypto works off-thread, so one await per chunk idles it. */
export const PIPELINE_DEPTH = 3;

type ChunkCall = (key: CryptoKey, fileNonce: Uint8Array, index: number, last: boolean, piece: Uint8Array) => Promise<Bytes>;

/** Whole pieces of the input, in order; the last one flagged (and possibly short or empty). */
type PieceSource = { next(): Promise<{ piece: Uint8Array; last: boolean }>; cancel(reason: unknown): Promise<void> };

/**
 * From a byte stream (a fetched body or file.stream() in Chromium): each piece is read straight
 * into its own buffer (`read(view, { min })`), so there is no gathering copy and about one read
 * per piece. A full piece is handed on as soon as one more byte shows that it is not the last.
 */
function byobPieces(reader: ReadableStreamBYOBReader, pieceSize: number): PieceSource {
  // `min` (fill at least this much before answering) is newer than this project's DOM types.
  const read = reader.read.bind(reader) as unknown as (
    view: Uint8Array<ArrayBuffer>,
    options: { min: number },
  ) => Promise<ReadableStreamReadResult<Uint8Array>>;
  let ended = false;
  // Two buffers take turns: the piece handed out last time was copied by its call at once
  // (WebCrypto copies its input synchronously), so its buffer is free by the next call of next().
  let handedOut: ArrayBuffer | undefined;
  let current: ArrayBuffer | undefined;
  let filled = 0;
  /** Reads into `current` from `filled` until it holds at least `upTo` bytes or the input ends. */
  const fill = async (upTo: number) => {
    while (filled < upTo && !ended) {
      const view = new Uint8Array(current!, filled, pieceSize - filled);
      const { done, value } = await read(view, { min: upTo - filled });
      if (value) current = value.buffer as ArrayBuffer; // the view's buffer was transferred
      filled += value?.length ?? 0;
      if (done) ended = true;
    }
  };
  return {
    async next() {
      const spare = handedOut;
      current ??= spare ?? new ArrayBuffer(pieceSize);
      await fill(pieceSize);
      const piece = new Uint8Array(current, 0, filled);
      handedOut = current;
      if (ended) return { piece, last: true };
      // Full: one byte of the next piece decides whether this one is the last.
      current = spare && spare !== handedOut ? spare : new ArrayBuffer(pieceSize);
      filled = 0;
      await fill(1);
      if (ended && filled === 0) return { piece, last: true };
      return { piece, last: false };
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

/**
 * From any stream: pieces gathered from the input arrays. A piece lying whole inside one input
 * array, with more input after it, is handed on as a view (WebCrypto copies it synchronously);
 * only pieces that straddle input arrays, or that might be the last, are gathered in one reused
 * buffer of `pieceSize`.
 */
function gatheredPieces(reader: ReadableStreamDefaultReader<Uint8Array>, pieceSize: number): PieceSource {
  let buffer = new Uint8Array(pieceSize);
  let fill = 0;
  let input: Uint8Array | undefined;
  let offset = 0;
  return {
    async next() {
      for (;;) {
        const available = input ? input.length - offset : 0;
        if (available > 0) {
          // More input follows, so a full buffer is not the last piece. Its calls copy it at
          // once, so it is refilled only on the next call of next().
          if (fill === pieceSize) {
            fill = 0;
            return { piece: buffer, last: false };
          }
          if (fill === 0 && available > pieceSize) {
            offset += pieceSize;
            return { piece: input!.subarray(offset - pieceSize, offset), last: false };
          }
          const n = Math.min(pieceSize - fill, available);
          buffer.set(input!.subarray(offset, offset + n), fill);
          fill += n;
          offset += n;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) {
          const piece = buffer.subarray(0, fill);
          buffer = new Uint8Array(0);
          return { piece, last: true };
        }
        input = value;
        offset = 0;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

function piecesOf(source: ReadableStream<Uint8Array>, pieceSize: number): PieceSource {
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = source.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: read what it gives.
  }
  return byob ? byobPieces(byob, pieceSize) : gatheredPieces(source.getReader(), pieceSize);
}

/**
 * Re-chunks `source` into pieces of `pieceSize` and answers `call`'s result for each, in order.
 * A full piece is started only once more input is known to follow (then it is not last) or the
 * input has ended (then it is), so the last flag is always right.
 *
 * Up to PIPELINE_DEPTH calls run at once. Results leave strictly in order, each only after every
 * earlier one: once a call fails, the stream errors with that failure, nothing after the failing
 * chunk is ever handed on, no further call starts and the source is cancelled.
 *
 * Exported for bench/crypto's plumbing probe, which runs it with a stand-in for AES-GCM
 * (docs/benchmarks.md "The streams read their source").
 */
export function chunkedReadable(
  source: ReadableStream<Uint8Array>,
  pieceSize: number,
  key: AesKey,
  fileNonce: Uint8Array,
  options: StreamOptions,
  call: ChunkCall,
  beforeLast: (fill: number) => void,
): ReadableStream<Uint8Array> {
  checkLength(fileNonce, NONCE_BYTES, 'fileNonce');
  // A copy: the caller may reuse its array while the stream still runs.
  const nonce = new Uint8Array(fileNonce);
  const pieces = piecesOf(source, pieceSize);
  let cryptoKey: CryptoKey;
  let index = options.startChunk ?? 0;
  let lastStarted = false;
  /** Cancelled or failed: no further call starts. */
  let stopped = false;
  const inFlight: Promise<Bytes>[] = [];
  /** Wakes a pull waiting for a call to be started. */
  let wake: (() => void) | undefined;
  const push = (result: Promise<Bytes>) => {
    result.catch(() => {}); // reported when its turn comes; a later one may fail first
    inFlight.push(result);
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };

  // Starts calls until the window is full, in the background: results already done leave
  // while it waits for input (a slow network must not hold back what is decrypted).
  let pumping = false;
  const pump = () => {
    if (pumping || lastStarted || stopped) return;
    pumping = true;
    void (async () => {
      try {
        while (!lastStarted && !stopped && inFlight.length < PIPELINE_DEPTH) {
          const { piece, last } = await pieces.next();
          if (stopped) break;
          if (last) {
            lastStarted = true;
            beforeLast(piece.length);
          }
          push(call(cryptoKey, nonce, index++, last, piece));
        }
      } catch (error) {
        // In order: it is reported once every result before it has left.
        lastStarted = true;
        push(Promise.reject(error));
      } finally {
        pumping = false;
      }
    })();
  };

  return new ReadableStream<Uint8Array>(
    {
      async start() {
        cryptoKey = await importAesKey(key);
      },
      async pull(controller) {
        pump();
        while (inFlight.length === 0) {
          if (stopped) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        try {
          const bytes = await inFlight.shift()!;
          if (stopped) return;
          pump();
          controller.enqueue(bytes);
          if (lastStarted && inFlight.length === 0) controller.close();
        } catch (error) {
          inFlight.length = 0;
          stopped = true;
          controller.error(error);
          void pieces.cancel(error).catch(() => {});
        }
      },
      cancel(reason) {
        inFlight.length = 0;
        stopped = true;
        wake?.();
        return pieces.cancel(reason);
      },
    },
    // Pulled only when read: the reader downstream sets the pace, the window keeps WebCrypto busy.
    { highWaterMark: 0 },
  );
}

/** Plaintext in, blob bytes out. Use a fresh `newFileNonce()` for every new upload. */
export function encryptBody(
  source: ReadableStream<Uint8Array>,
  key: AesKey,
  fileNonce: Uint8Array,
  options: StreamOptions = {},
): ReadableStream<Uint8Array> {
  return chunkedReadable(source, CHUNK, key, fileNonce, options, encryptChunk, () => {});
}

/** Blob bytes in (a response body, say), plaintext out; errors with DECRYPT_FAILED or TRUNCATED on any tampering. */
export function decryptBody(
  source: ReadableStream<Uint8Array>,
  key: AesKey,
  fileNonce: Uint8Array,
  options: StreamOptions = {},
): ReadableStream<Uint8Array> {
  return chunkedReadable(source, CIPHER_CHUNK, key, fileNonce, options, decryptChunk, (fill) => {
    if (fill < TAG_BYTES) fail('TRUNCATED', 'the encrypted stream ended before its last chunk');
  });
}

type StreamPair = { writable: WritableStream<Uint8Array>; readable: ReadableStream<Uint8Array> };

/** The pull-based core behind a writable side, for `pipeThrough`. */
function piped(make: (source: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>): StreamPair {
  const pass = new TransformStream<Uint8Array, Uint8Array>();
  return { writable: pass.writable, readable: make(pass.readable) };
}

/** `encryptBody` for `pipeThrough`. */
export function createEncryptStream(key: AesKey, fileNonce: Uint8Array, options: StreamOptions = {}): StreamPair {
  return piped((source) => encryptBody(source, key, fileNonce, options));
}

/** `decryptBody` for `pipeThrough`. */
export function createDecryptStream(key: AesKey, fileNonce: Uint8Array, options: StreamOptions = {}): StreamPair {
  return piped((source) => decryptBody(source, key, fileNonce, options));
}
