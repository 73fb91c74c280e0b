/** Part geometry of a file and the plaintext hashes that prove a re-picked file is the same. */
import { CHUNK, PART_BYTES, PART_CHUNKS, ciphertextSize, toHex } from '@sealbox/crypto';
import { plainRangeOfPart, type PartGeometry } from '../../model/transfer-plan.ts';

const PART_PLAIN_BYTES = PART_CHUNKS * CHUNK;

export function geometryOf(plainSize: number): PartGeometry {
  return { plainSize, cipherSize: ciphertextSize(plainSize), partBytes: PART_BYTES, partPlainBytes: PART_PLAIN_BYTES };
}

async function sha256HexOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** The picked file's plaintext hash for each part in `parts` (resume check). */
export async function hashParts(file: File, g: PartGeometry, parts: number[]): Promise<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const n of parts) {
    const { start, end } = plainRangeOfPart(g, n);
    if (start >= g.plainSize && n > 0) continue;
    out[n] = await sha256HexOf(new Uint8Array(await file.slice(start, end).arrayBuffer()));
  }
  return out;
}
