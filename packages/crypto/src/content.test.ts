import { describe, expect, test } from 'bun:test';
import {
  CHUNK,
  CIPHER_CHUNK,
  chunkCipherRange,
  chunkCount,
  chunkNonce,
  cipherRangeForPlain,
  ciphertextSize,
  plaintextSize,
} from './content.ts';

describe('sizes', () => {
  test('plaintext <-> ciphertext size is a bijection on valid sizes', () => {
    const sizes = [0, 1, 15, 16, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 5 * CHUNK + 77, 1024 ** 3, 10 * 1024 ** 4 + 3];
    for (const p of sizes) expect(plaintextSize(ciphertextSize(p))).toBe(p);
    expect(ciphertextSize(0)).toBe(16);
    expect(ciphertextSize(CHUNK)).toBe(CIPHER_CHUNK);
    expect(ciphertextSize(CHUNK + 1)).toBe(CHUNK + 1 + 32);
    expect(chunkCount(1024 ** 3)).toBe(4096);
  });

  test('impossible ciphertext sizes are refused', () => {
    for (const bad of [0, 15, CIPHER_CHUNK + 1, CIPHER_CHUNK + 16, -1, 1.5]) expect(() => plaintextSize(bad)).toThrow();
  });

  test('chunk ranges tile the blob', () => {
    const plain = 3 * CHUNK + 10;
    let expected = 0;
    for (let i = 0; i < chunkCount(plain); i++) {
      const { start, end } = chunkCipherRange(i, plain);
      expect(start).toBe(expected);
      expected = end;
    }
    expect(expected).toBe(ciphertextSize(plain));
    expect(() => chunkCipherRange(4, plain)).toThrow();
  });

  test('a plaintext range maps to the chunks that hold it', () => {
    const plain = 3 * CHUNK + 10;
    expect(cipherRangeForPlain(0, 1, plain)).toEqual({ firstChunk: 0, lastChunk: 0, start: 0, end: CIPHER_CHUNK });
    expect(cipherRangeForPlain(CHUNK - 1, CHUNK + 1, plain)).toMatchObject({ firstChunk: 0, lastChunk: 1 });
    expect(cipherRangeForPlain(3 * CHUNK, plain, plain)).toEqual({
      firstChunk: 3,
      lastChunk: 3,
      start: 3 * CIPHER_CHUNK,
      end: ciphertextSize(plain),
    });
    expect(() => cipherRangeForPlain(5, 5, plain)).toThrow();
  });
});

test('chunk nonces XOR the index into the last 4 bytes only', () => {
  const base = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 0xff, 0xff, 0xff, 0xfe]);
  expect(Array.from(chunkNonce(base, 0))).toEqual(Array.from(base));
  expect(Array.from(chunkNonce(base, 1))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 0xff, 0xff, 0xff, 0xff]);
  expect(Array.from(chunkNonce(base, 0x01020304).subarray(8))).toEqual([0xfe, 0xfd, 0xfc, 0xfa]);
  expect(() => chunkNonce(base, 2 ** 32)).toThrow();
});

describe('parts', () => {
  test('parts tile the blob on chunk boundaries', async () => {
    const { PART_BYTES, PART_CHUNKS, partCount, partRange } = await import('./content.ts');
    expect(PART_BYTES).toBe(PART_CHUNKS * CIPHER_CHUNK);
    for (const plain of [0, 1, CHUNK * PART_CHUNKS, CHUNK * PART_CHUNKS + 1, 1024 ** 3]) {
      const size = ciphertextSize(plain);
      let expected = 0;
      for (let n = 0; n < partCount(size); n++) {
        const { start, end } = partRange(n, size);
        expect(start).toBe(expected);
        expect(start % CIPHER_CHUNK).toBe(0);
        expected = end;
      }
      expect(expected).toBe(size);
    }
    expect(partCount(ciphertextSize(1024 ** 3))).toBe(128);
    expect(() => partCount(CIPHER_CHUNK + 3)).toThrow();
    expect(() => partRange(1, 16)).toThrow();
  });
});
