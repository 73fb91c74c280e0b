/**
 * Part fingerprints (src/part-fingerprints.ts; docs/protocol.md "Part protocol"): what an upload
 * records from the ciphertext it sends equals what the same file gives when encrypted again
 * under the same K and nonce; a changed byte, another key or nonce give another one; the hash is
 * SHA-256 (known answers from Python's hashlib); bad input is refused.
 */
import { describe, expect, test } from 'bun:test';
import {
  CHUNK,
  CIPHER_CHUNK,
  PART_BYTES,
  PART_CHUNKS,
  ciphertextSize,
  ciphertextTags,
  createEncryptStream,
  newFileNonce,
  newItemKey,
  partCount,
  partFingerprint,
  partPlainRange,
  partRange,
  tagsFingerprint,
} from '../src/index.ts';

const SIZE = 2 * PART_CHUNKS * CHUNK + 3 * CHUNK + 1000;

function pseudoRandom(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function encrypt(key: Uint8Array, nonce: Uint8Array, plain: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([plain as Uint8Array<ArrayBuffer>]).stream().pipeThrough(createEncryptStream(key, nonce));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function fingerprintsFromFile(key: Uint8Array, nonce: Uint8Array, plain: Uint8Array): Promise<string[]> {
  const parts = partCount(ciphertextSize(plain.length));
  const out: string[] = [];
  for (let n = 0; n < parts; n++) {
    const { start, end } = partPlainRange(n, plain.length);
    out.push(await partFingerprint(key, nonce, plain.length, n, plain.subarray(start, end)));
  }
  return out;
}

describe('part fingerprints', () => {
  test('SHA-256 of the tags, as hex (known answers)', async () => {
    expect(await tagsFingerprint(new Uint8Array(16))).toBe('374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb');
    expect(await tagsFingerprint(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(
      '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
    );
  });

  test('recorded from the ciphertext sent = made again from the same file', async () => {
    const key = newItemKey();
    const nonce = newFileNonce();
    const plain = pseudoRandom(SIZE, 7);
    const cipher = await encrypt(key, nonce, plain);
    const parts = partCount(cipher.length);
    expect(parts).toBe(3);
    const sent: string[] = [];
    for (let n = 0; n < parts; n++) {
      const { start, end } = partRange(n, cipher.length);
      const part = cipher.subarray(start, end);
      const tags = ciphertextTags(part);
      expect(tags.length).toBe(Math.ceil(part.length / CIPHER_CHUNK) * 16);
      sent.push(await tagsFingerprint(tags));
    }
    expect(await fingerprintsFromFile(key, nonce, plain)).toEqual(sent);
  });

  test('one changed byte changes its part only; another key or nonce changes every part', async () => {
    const key = newItemKey();
    const nonce = newFileNonce();
    const plain = pseudoRandom(SIZE, 9);
    const before = await fingerprintsFromFile(key, nonce, plain);
    const changed = plain.slice();
    const at = PART_CHUNKS * CHUNK + 5;
    changed[at] = changed[at]! ^ 1;
    const after = await fingerprintsFromFile(key, nonce, changed);
    expect(after[0]).toBe(before[0]!);
    expect(after[1]).not.toBe(before[1]!);
    expect(after[2]).toBe(before[2]!);
    const otherKey = await fingerprintsFromFile(newItemKey(), nonce, plain);
    const otherNonce = await fingerprintsFromFile(key, newFileNonce(), plain);
    for (let n = 0; n < 3; n++) {
      expect(otherKey[n]).not.toBe(before[n]!);
      expect(otherNonce[n]).not.toBe(before[n]!);
    }
  });

  test('an empty file has one part of one tag', async () => {
    const key = newItemKey();
    const nonce = newFileNonce();
    const cipher = await encrypt(key, nonce, new Uint8Array(0));
    expect(cipher.length).toBe(16);
    expect(await tagsFingerprint(ciphertextTags(cipher))).toBe(await partFingerprint(key, nonce, 0, 0, new Uint8Array(0)));
  });

  test('refuses what is not whole tags or a part', async () => {
    await expect(tagsFingerprint(new Uint8Array(0))).rejects.toThrow();
    await expect(tagsFingerprint(new Uint8Array(17))).rejects.toThrow();
    expect(() => ciphertextTags(new Uint8Array(15))).toThrow();
    // A part whose last chunk is shorter than a tag cannot come from the format.
    expect(() => ciphertextTags(new Uint8Array(CIPHER_CHUNK + 5))).toThrow();
    expect(PART_BYTES).toBe(PART_CHUNKS * CIPHER_CHUNK);
  });
});
