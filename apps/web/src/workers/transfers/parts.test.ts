// @vitest-environment node
/**
 * Part fingerprints (parts.ts): what the upload records as it encrypts must be what a re-picked
 * file gives under the same key and nonce, and a single changed byte must change its part's
 * fingerprint and no other.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK, PART_CHUNKS, encryptBody, newFileNonce, newItemKey } from '@sealbox/crypto';
import { fingerprintParts, geometryOf, partFingerprints } from './parts.ts';

const PART_PLAIN = PART_CHUNKS * CHUNK;

function bytesOf(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

/** Fingerprints recorded while the whole file is encrypted as the upload does it. */
async function recordedWhileEncrypting(file: File, key: Uint8Array, nonce: Uint8Array) {
  const g = geometryOf(file.size);
  const parts = Math.ceil(g.cipherSize / g.partBytes);
  const out: Record<number, string> = {};
  const fingerprints = partFingerprints(g, 0, new Set(Array.from({ length: parts }, (_, n) => n)), async (n, f) => {
    out[n] = f;
  });
  const reader = encryptBody(file.stream(), key, nonce).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) fingerprints.push(r.value);
  for (let n = 0; n < parts; n++) await fingerprints.recorded(n);
  return out;
}

describe('part fingerprints', () => {
  const size = 2 * PART_PLAIN + 3 * CHUNK + 77; // three parts, the last one short
  const key = newItemKey();
  const nonce = newFileNonce();
  const original = bytesOf(size, 7);

  it('what is recorded while encrypting is what the same file gives when picked again', async () => {
    const file = new File([original], 'a.bin');
    const recorded = await recordedWhileEncrypting(file, key, nonce);
    expect(Object.keys(recorded)).toEqual(['0', '1', '2']);
    expect(await fingerprintParts(file, geometryOf(size), [0, 1, 2], key, nonce)).toEqual(recorded);
  });

  it('one changed byte changes its part only; another key or nonce changes every part', async () => {
    const recorded = await recordedWhileEncrypting(new File([original], 'a.bin'), key, nonce);
    const changed = new Uint8Array(original);
    changed[PART_PLAIN + 5 * CHUNK + 3]! ^= 1;
    const again = await fingerprintParts(new File([changed], 'a.bin'), geometryOf(size), [0, 1, 2], key, nonce);
    expect(again[0]).toBe(recorded[0]);
    expect(again[1]).not.toBe(recorded[1]);
    expect(again[2]).toBe(recorded[2]);

    const same = new File([original], 'a.bin');
    const otherKey = await fingerprintParts(same, geometryOf(size), [0, 1, 2], newItemKey(), nonce);
    const otherNonce = await fingerprintParts(same, geometryOf(size), [0, 1, 2], key, newFileNonce());
    for (const n of [0, 1, 2]) {
      expect(otherKey[n]).not.toBe(recorded[n]);
      expect(otherNonce[n]).not.toBe(recorded[n]);
    }
  });

  it('a file that grew by a byte at its end changes the last part (its last flag moved)', async () => {
    const longer = new Uint8Array(size + 1);
    longer.set(original);
    const recorded = await recordedWhileEncrypting(new File([original], 'a.bin'), key, nonce);
    // Same parts of the plaintext, but chunk 2*32+3 is no longer the last one.
    const again = await fingerprintParts(new File([longer], 'a.bin'), geometryOf(size + 1), [2], key, nonce);
    expect(again[2]).not.toBe(recorded[2]);
  });
});
