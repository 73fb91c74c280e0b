import { createEncryptStream, newFileNonce, newItemKey } from '@sealbox/crypto';

/** A file of `size` patterned bytes, sealed as an upload seals it: what a fake server holds. */
export async function sealedSample(size: number) {
  const plain = new Uint8Array(size);
  for (let i = 0; i < size; i++) plain[i] = (i * 31 + (i >> 9)) & 0xff;
  const key = newItemKey();
  const fileNonce = newFileNonce();
  const sealed = new Blob([plain as Uint8Array<ArrayBuffer>]).stream().pipeThrough(createEncryptStream(key, fileNonce));
  const cipher = new Uint8Array(await new Response(sealed).arrayBuffer());
  return { plain, key, fileNonce, cipher };
}
