/** Part geometry of a file and the plaintext hashes that prove a re-picked file is the same (resume.ts). */
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

/**
 * SHA-256 of each part's plaintext as the file streams past, from part `first` on; the hash of
 * a part in `toSend` is handed to `record` (IndexedDB) before that part may be sent, which
 * waits on `recorded(n)`. One buffer of a part's size is reused throughout.
 */
export function partHasher(
  g: PartGeometry,
  first: number,
  total: number,
  toSend: ReadonlySet<number>,
  record: (n: number, hash: string) => Promise<void>,
) {
  const recorded = new Map<number, Promise<void>>();
  let part = first;
  let length = plainRangeOfPart(g, part).end - plainRangeOfPart(g, part).start;
  let buffer = new Uint8Array(length);
  let fill = 0;
  const finishPart = () => {
    const n = part;
    if (toSend.has(n)) {
      // digest() copies its input before returning, so the buffer may be reused at once.
      const hashing = crypto.subtle.digest('SHA-256', buffer.subarray(0, fill));
      const done = hashing.then((digest) => record(n, toHex(new Uint8Array(digest))));
      done.catch(() => {});
      recorded.set(n, done);
    }
    part++;
    if (part < total) {
      const r = plainRangeOfPart(g, part);
      length = r.end - r.start;
      if (buffer.length < length) buffer = new Uint8Array(length);
    }
    fill = 0;
  };
  return {
    push(chunk: Uint8Array): void {
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(length - fill, chunk.length - offset);
        buffer.set(chunk.subarray(offset, offset + n), fill);
        fill += n;
        offset += n;
        if (fill === length) finishPart();
      }
    },
    recorded: (n: number): Promise<void> | undefined => recorded.get(n),
  };
}
