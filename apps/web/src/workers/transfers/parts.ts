/**
 * Part geometry of a file, and the part fingerprints that prove a re-picked file is the same
 * (resume.ts; docs/protocol.md "Part protocol").
 *
 * A part's fingerprint is the SHA-256 of the AES-GCM tags of its chunks (@sealbox/crypto
 * part-fingerprints.ts). The tags come out of the encryption the upload does anyway: no second
 * pass over the file (a SHA-256 of the plaintext cost about 1.5 CPU-seconds per GiB on the
 * upload's critical path).
 */
import {
  CHUNK,
  PART_BYTES,
  PART_CHUNKS,
  TAG_BYTES,
  chunkCount,
  ciphertextSize,
  partFingerprint,
  tagsFingerprint,
} from '@sealbox/crypto';
import { plainRangeOfPart, type PartGeometry } from '../../model/transfer-plan.ts';

const PART_PLAIN_BYTES = PART_CHUNKS * CHUNK;

export function geometryOf(plainSize: number): PartGeometry {
  return { plainSize, cipherSize: ciphertextSize(plainSize), partBytes: PART_BYTES, partPlainBytes: PART_PLAIN_BYTES };
}

/** Chunks in part `n` of a file of `plainSize` bytes. */
function chunksInPart(plainSize: number, n: number): number {
  return Math.min(PART_CHUNKS, chunkCount(plainSize) - n * PART_CHUNKS);
}

/**
 * The picked file's fingerprint for each part in `parts`, made by encrypting those parts again
 * under the upload's key and nonce. That ciphertext stays here and is dropped: only the tags'
 * hash is compared, and a file that changed starts a fresh upload with a new key and nonce, so
 * the server never sees two ciphertexts under one (K, nonce_i).
 */
export async function fingerprintParts(
  file: File,
  g: PartGeometry,
  parts: number[],
  key: Uint8Array,
  fileNonce: Uint8Array,
): Promise<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const n of parts) {
    const { start, end } = plainRangeOfPart(g, n);
    if (start >= g.plainSize && n > 0) continue;
    const plain = new Uint8Array(await file.slice(start, end).arrayBuffer());
    out[n] = await partFingerprint(key, fileNonce, g.plainSize, n, plain);
  }
  return out;
}

/**
 * Fingerprints of the parts in `toSend` as the encrypted chunks stream past, from part `first`
 * on (each push is one whole ciphertext chunk, as encryptBody answers them); a part's
 * fingerprint is handed to `record` (IndexedDB) before that part may be sent, which waits on
 * `recorded(n)`.
 */
export function partFingerprints(
  g: PartGeometry,
  first: number,
  toSend: ReadonlySet<number>,
  record: (n: number, fingerprint: string) => Promise<void>,
) {
  const recorded = new Map<number, Promise<void>>();
  let part = first;
  let tags = new Uint8Array(PART_CHUNKS * TAG_BYTES);
  let seen = 0;
  return {
    push(chunk: Uint8Array): void {
      if (chunk.length < TAG_BYTES) throw new Error('not a ciphertext chunk');
      tags.set(chunk.subarray(chunk.length - TAG_BYTES), seen * TAG_BYTES);
      seen++;
      if (seen < chunksInPart(g.plainSize, part)) return;
      if (toSend.has(part)) {
        const n = part;
        const done = tagsFingerprint(tags.slice(0, seen * TAG_BYTES)).then((fingerprint) => record(n, fingerprint));
        done.catch(() => {});
        recorded.set(n, done);
      }
      part++;
      seen = 0;
      tags = new Uint8Array(PART_CHUNKS * TAG_BYTES);
    },
    recorded: (n: number): Promise<void> | undefined => recorded.get(n),
  };
}
