/**
 * Throughput of the chunked content format, the same code in Bun and in a browser worker.
 * 'chunks' runs the format's per-chunk work (nonce_i, AAD, one AES-GCM call) at any chunk size;
 * 'stream' runs the package's real streams at CHUNK as the app uses them (decryptBody reading its
 * source itself, encryptBody likewise), fed in 64 KiB pieces like file.stream() or in the pieces a
 * fetched response body arrives in, or (blob) reading a browser byte stream straight into its
 * chunks.
 */
import { chunkNonce } from '../../packages/crypto/src/content.ts';
import { fedCalls, plumbingOnly } from './probes.ts';
import { chunkCount, decryptBody, encryptBody, newFileNonce, newItemKey } from '../../packages/crypto/src/index.ts';

export interface MeasureRequest {
  mode: 'chunks' | 'stream';
  direction: 'encrypt' | 'decrypt';
  chunkSize: number;
  bytes: number;
  /** AES-GCM calls kept in flight at once (WebCrypto runs them off-thread). */
  depth?: number;
  /**
   * 'stream' only: size of the input pieces, or 0 for the sizes a fetched body arrives in
   * (NETWORK_PIECES). Default 64 KiB, what file.stream() delivers.
   */
  pieceSize?: number;
  /**
   * 'stream', decrypt only: read a Blob's own byte stream instead (the browser copies into the
   * stream's chunk buffers, as with a fetched body); pieceSize is then the browser's.
   */
  blobSource?: boolean;
  /**
   * 'stream', decrypt only, a probe instead of decryptBody (bench/crypto/probes.ts): 'plumbing'
   * is the stream with a no-op for AES-GCM; 'fed' is the raw calls fed from the same source with
   * the least reading work.
   */
  probe?: 'plumbing' | 'fed';
}

export interface MeasureResult {
  bytes: number;
  ms: number;
}

const SOURCE_BYTES = 32 * 1024 * 1024;

function aad(index: number, last: boolean): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(5);
  new DataView(out.buffer).setUint32(0, index);
  out[4] = last ? 1 : 0;
  return out;
}

function randomSource(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

/**
 * Inputs are made once per worker and kind of cell and kept (the last few), so that the garbage
 * of making them (tens of MiB) is not collected inside the next timed loop, whichever it is.
 */
const prepared = new Map<string, unknown>();
async function once<T>(name: string, make: () => Promise<T>): Promise<T> {
  let value = prepared.get(name) as T | undefined;
  if (value === undefined) {
    value = await make();
    prepared.set(name, value);
    if (prepared.size > 3) prepared.delete(prepared.keys().next().value!);
  }
  return value;
}

async function chunkLoop(req: MeasureRequest): Promise<MeasureResult> {
  const sourceBytes = Math.min(SOURCE_BYTES, req.bytes);
  const { key, nonce, inputs, count } = await once(`chunks ${req.direction} ${req.chunkSize} ${sourceBytes}`, () =>
    chunkInputs(req, sourceBytes),
  );
  // Fewer bytes than one chunk would make the rounds below endless.
  if (count === 0) throw new Error(`${req.bytes} bytes is less than one ${req.chunkSize}-byte chunk`);
  const rounds = Math.max(1, Math.round(req.bytes / (count * req.chunkSize)));
  const op = req.direction === 'encrypt' ? 'encrypt' : 'decrypt';
  const depth = req.depth ?? 1;
  const inFlight: Promise<ArrayBuffer>[] = [];
  const start = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < count; i++) {
      if (inFlight.length >= depth) await inFlight.shift();
      inFlight.push(
        crypto.subtle[op]({ name: 'AES-GCM', iv: chunkNonce(nonce, i), additionalData: aad(i, false) }, key, inputs[i]!),
      );
    }
  }
  await Promise.all(inFlight);
  return { bytes: rounds * count * req.chunkSize, ms: performance.now() - start };
}

async function chunkInputs(req: MeasureRequest, sourceBytes: number) {
  const key = await crypto.subtle.importKey('raw', newItemKey(), 'AES-GCM', false, ['encrypt', 'decrypt']);
  const nonce = newFileNonce();
  const plain = randomSource(sourceBytes);
  const count = Math.floor(plain.length / req.chunkSize);
  const inputs: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < count; i++) {
    const piece = plain.subarray(i * req.chunkSize, (i + 1) * req.chunkSize);
    inputs.push(
      req.direction === 'encrypt'
        ? piece
        : new Uint8Array(
            await crypto.subtle.encrypt({ name: 'AES-GCM', iv: chunkNonce(nonce, i), additionalData: aad(i, false) }, key, piece),
          ),
    );
  }
  return { key, nonce, inputs, count };
}

/**
 * The piece sizes a fetched response body is read in by Chromium 156 (64 MiB from 127.0.0.1,
 * read in a page: 64 KiB multiples up to 512 KiB, the small ones most often), cycled; never
 * aligned with CIPHER_CHUNK.
 */
export const NETWORK_PIECES = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8].map((k) => k * 65536);

function pieces(data: Uint8Array, size: number, rounds: number): ReadableStream<Uint8Array> {
  let round = 0;
  let offset = 0;
  let k = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) {
        if (++round >= rounds) return controller.close();
        offset = 0;
      }
      const n = size || NETWORK_PIECES[k++ % NETWORK_PIECES.length]!;
      controller.enqueue(data.subarray(offset, offset + n));
      offset += n;
    },
  });
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.length;
  }
}

async function streamLoop(req: MeasureRequest): Promise<MeasureResult> {
  const sourceBytes = Math.min(SOURCE_BYTES, req.bytes);
  const { key, cryptoKey, nonce, plain, blob } = await once(`stream ${req.direction} ${sourceBytes}`, async () => {
    const key = newItemKey();
    const cryptoKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    const nonce = newFileNonce();
    const plain = randomSource(sourceBytes);
    if (req.direction === 'encrypt') return { key, cryptoKey, nonce, plain, blob: plain };
    // The real blob of this plaintext, for decrypting.
    const encrypted = encryptBody(pieces(plain, 65536, 1), key, nonce);
    return { key, cryptoKey, nonce, plain, blob: new Uint8Array(await new Response(encrypted).arrayBuffer()) };
  });
  const rounds = Math.max(1, Math.round(req.bytes / plain.length));
  const piece = req.pieceSize ?? 65536;
  if (req.direction === 'encrypt') {
    const start = performance.now();
    await drain(encryptBody(pieces(plain, piece, rounds), key, nonce));
    return { bytes: rounds * plain.length, ms: performance.now() - start };
  }
  // Decrypt the real blob of as many bytes as the 'chunks' rows use, `rounds` times, each time
  // through a fresh stream fed as the download path feeds it: a response body's pieces, which
  // never line up with chunk boundaries.
  let bytes = 0;
  const start = performance.now();
  const whole = new Blob([blob]);
  for (let r = 0; r < rounds; r++) {
    const source = req.blobSource ? whole.stream() : pieces(blob, piece, 1);
    if (req.probe === 'plumbing') {
      await plumbingOnly(source, key, nonce);
      bytes += plain.length;
    } else if (req.probe === 'fed') bytes += await fedCalls(source, cryptoKey, nonce, chunkCount(plain.length));
    else bytes += await drain(decryptBody(source, key, nonce));
  }
  return { bytes, ms: performance.now() - start };
}

export function measure(req: MeasureRequest): Promise<MeasureResult> {
  return req.mode === 'chunks' ? chunkLoop(req) : streamLoop(req);
}
