/**
 * The probes of bench/crypto's decrypt rows (docs/benchmarks.md "The streams read their source"):
 * each reads the same source with the same reader as decryptBody does, so that the stream's loss
 * against the raw chunk calls can be split into what reading its pieces costs and what the
 * stream's own framing costs.
 */
import { CIPHER_CHUNK, chunkNonce } from '../../packages/crypto/src/content.ts';
import { PIPELINE_DEPTH, chunkedReadable } from '../../packages/crypto/src/content-streams.ts';

async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done) {}
}

/** The plumbing probe's stand-in for a chunk's AES-GCM call: no work, no new output. */
const NO_OUTPUT = new Uint8Array(0);
const standIn = async () => NO_OUTPUT;

/** decryptBody with its AES-GCM calls replaced by a no-op: only what the stream adds to them. */
export function plumbingOnly(source: ReadableStream<Uint8Array>, key: Uint8Array, nonce: Uint8Array): Promise<void> {
  return drain(chunkedReadable(source, CIPHER_CHUNK, key, nonce, {}, standIn, () => {}));
}

/**
 * The raw chunk calls fed from the source with the least work any reader of it must do: read each
 * piece, copy it into place in one chunk buffer, start the call when the chunk is whole, keep
 * PIPELINE_DEPTH calls in flight. No framing and no output stream; `chunks` (known from the blob's
 * size) says which chunk is the last. Answers the plaintext bytes.
 */
export async function fedCalls(
  source: ReadableStream<Uint8Array>,
  key: CryptoKey,
  nonce: Uint8Array,
  chunks: number,
): Promise<number> {
  const reader = source.getReader();
  const buffer = new Uint8Array(CIPHER_CHUNK);
  const inFlight: Promise<ArrayBuffer>[] = [];
  let plain = 0;
  let fill = 0;
  let index = 0;
  const start = async (length: number) => {
    if (inFlight.length >= PIPELINE_DEPTH) plain += (await inFlight.shift()!).byteLength;
    const additionalData = new Uint8Array(5);
    new DataView(additionalData.buffer).setUint32(0, index);
    additionalData[4] = index === chunks - 1 ? 1 : 0;
    // WebCrypto copies its input at the call, so the buffer is free again at once.
    inFlight.push(
      crypto.subtle.decrypt({ name: 'AES-GCM', iv: chunkNonce(nonce, index++), additionalData }, key, buffer.subarray(0, length)),
    );
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let offset = 0; offset < value.length; ) {
      const n = Math.min(CIPHER_CHUNK - fill, value.length - offset);
      buffer.set(value.subarray(offset, offset + n), fill);
      fill += n;
      offset += n;
      if (fill === CIPHER_CHUNK) {
        await start(fill);
        fill = 0;
      }
    }
  }
  if (fill > 0) await start(fill);
  for (const result of inFlight) plain += (await result).byteLength;
  return plain;
}
