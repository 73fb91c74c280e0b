import { describe, expect, test } from 'bun:test';
import { CHUNK, CIPHER_CHUNK, chunkCount, createEncryptStream, newFileNonce } from '@sealbox/crypto';
import { batchLength, decryptedBatches } from './decrypt-batches.ts';

const SIZE = 5 * CHUNK + 1234;

async function sealed() {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  const nonce = newFileNonce();
  const plain = new Uint8Array(SIZE);
  for (let at = 0; at < SIZE; at += 65_536) crypto.getRandomValues(plain.subarray(at, Math.min(SIZE, at + 65_536)));
  const encrypted = new Response(new Blob([plain]).stream().pipeThrough(createEncryptStream(key, nonce)));
  return { key, nonce, plain, cipher: new Uint8Array(await encrypted.arrayBuffer()) };
}

/** The bytes as a network would hand them over: in pieces of odd sizes. */
function body(bytes: Uint8Array, piece = 77_777): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

async function collect(batches: AsyncGenerator<Uint8Array[]>) {
  const got: Uint8Array[][] = [];
  let error: unknown;
  try {
    for await (const batch of batches) got.push(batch);
  } catch (caught) {
    error = caught;
  }
  return { got, error: (error as Error | undefined)?.message };
}

const joined = (batches: Uint8Array[][]) => new Uint8Array(Buffer.concat(batches.flat()));
const all = { from: 0, to: chunkCount(SIZE) };

describe('decryptedBatches', () => {
  test('gives back the plaintext byte for byte, two chunks a batch, whatever the read sizes', async () => {
    const { key, nonce, plain, cipher } = await sealed();
    for (const piece of [1000, 77_777, CIPHER_CHUNK + 3, cipher.length]) {
      const { got, error } = await collect(decryptedBatches(body(cipher, piece), key, nonce, all, SIZE, 2));
      expect(error).toBeUndefined();
      expect(got.map(batchLength)).toEqual([2 * CHUNK, 2 * CHUNK, CHUNK + 1234]);
      expect(joined(got)).toEqual(plain);
    }
  });

  test('a range of chunks from the middle decrypts with its own indexes', async () => {
    const { key, nonce, plain, cipher } = await sealed();
    const part = cipher.subarray(2 * CIPHER_CHUNK);
    const { got, error } = await collect(decryptedBatches(body(part), key, nonce, { from: 2, to: all.to }, SIZE, 2));
    expect(error).toBeUndefined();
    expect(joined(got)).toEqual(plain.subarray(2 * CHUNK));
  });

  test('a changed byte stops at its batch: what came before is given, nothing after', async () => {
    const { key, nonce, plain, cipher } = await sealed();
    const bad = cipher.slice();
    bad[4 * CIPHER_CHUNK + 10]! ^= 1;
    const { got, error } = await collect(decryptedBatches(body(bad), key, nonce, all, SIZE, 2));
    expect(error).toBe('chunk 4 failed authentication');
    expect(joined(got)).toEqual(plain.subarray(0, 4 * CHUNK));
  });

  test('chunks swapped, an answer cut short or running on are refused', async () => {
    const { key, nonce, cipher } = await sealed();
    const swapped = cipher.slice();
    swapped.set(cipher.subarray(CIPHER_CHUNK, 2 * CIPHER_CHUNK), 0);
    swapped.set(cipher.subarray(0, CIPHER_CHUNK), CIPHER_CHUNK);
    expect((await collect(decryptedBatches(body(swapped), key, nonce, all, SIZE, 2))).error).toMatch(
      /^chunk [01] failed authentication$/,
    );
    const short = await collect(decryptedBatches(body(cipher.subarray(0, cipher.length - 1)), key, nonce, all, SIZE, 2));
    expect(short.error).toBe('The file ended early.');
    expect(short.got).toHaveLength(2);
    const long = new Uint8Array([...cipher, 1, 2, 3]);
    expect((await collect(decryptedBatches(body(long), key, nonce, all, SIZE, 2))).error).toBe(
      'The file is longer than recorded.',
    );
    // The file's end claimed earlier: its last chunk is not marked last, so it fails to open.
    const early = await collect(
      decryptedBatches(body(cipher.subarray(0, 3 * CIPHER_CHUNK)), key, nonce, { from: 0, to: 3 }, 3 * CHUNK, 2),
    );
    expect(early.error).toBe('chunk 2 failed authentication');
  });
});
