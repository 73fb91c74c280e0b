/** The files' bytes: made from a seed, so any range can be made again to check what comes back. */
import { createEncryptStream } from '@sealbox/crypto';

/** Plaintext byte i of a file made from `seed`: regenerated for any range, never stored. */
export function plain(seed: number, from: number, to: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(to - from);
  for (let i = from; i < to; i++) out[i - from] = (seed * 131 + i * 7 + (i >>> 9)) & 255;
  return out;
}

export async function encrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(createEncryptStream(key, nonce))).arrayBuffer(),
  );
}
