/**
 * Throughput of the chunked content format, the same code in Bun and in a browser worker.
 * 'chunks' runs the format's per-chunk work (nonce_i, AAD, one AES-GCM call) at any chunk size;
 * 'stream' runs the package's real TransformStreams at CHUNK, fed in 64 KiB pieces like file.stream().
 */
import { chunkNonce } from '../../packages/crypto/src/content.ts';
import { createDecryptStream, createEncryptStream, newFileNonce, newItemKey } from '../../packages/crypto/src/index.ts';

export interface MeasureRequest {
  mode: 'chunks' | 'stream';
  direction: 'encrypt' | 'decrypt';
  chunkSize: number;
  bytes: number;
  /** AES-GCM calls kept in flight at once (WebCrypto runs them off-thread). */
  depth?: number;
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

async function chunkLoop(req: MeasureRequest): Promise<MeasureResult> {
  const key = await crypto.subtle.importKey('raw', newItemKey(), 'AES-GCM', false, ['encrypt', 'decrypt']);
  const nonce = newFileNonce();
  const plain = randomSource(Math.min(SOURCE_BYTES, req.bytes));
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

function pieces(data: Uint8Array, size: number, rounds: number): ReadableStream<Uint8Array> {
  let round = 0;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) {
        if (++round >= rounds) return controller.close();
        offset = 0;
      }
      controller.enqueue(data.subarray(offset, offset + size));
      offset += size;
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
  const key = newItemKey();
  const nonce = newFileNonce();
  const plain = randomSource(Math.min(SOURCE_BYTES, req.bytes));
  const rounds = Math.max(1, Math.round(req.bytes / plain.length));
  if (req.direction === 'encrypt') {
    const start = performance.now();
    await drain(pieces(plain, 65536, rounds).pipeThrough(createEncryptStream(key, nonce)));
    return { bytes: rounds * plain.length, ms: performance.now() - start };
  }
  // Decrypt a real blob of `rounds` copies: encrypt it once, untimed.
  const blobParts: Uint8Array[] = [];
  const reader = pieces(plain, 65536, rounds).pipeThrough(createEncryptStream(key, nonce)).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) blobParts.push(r.value);
  const start = performance.now();
  let i = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < blobParts.length) controller.enqueue(blobParts[i++]!);
      else controller.close();
    },
  });
  const bytes = await drain(source.pipeThrough(createDecryptStream(key, nonce)));
  return { bytes, ms: performance.now() - start };
}

export function measure(req: MeasureRequest): Promise<MeasureResult> {
  return req.mode === 'chunks' ? chunkLoop(req) : streamLoop(req);
}
