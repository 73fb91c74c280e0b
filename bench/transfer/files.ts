/** The bench's input: a pseudo-random file, the same bytes encrypted as the app would, and their hash. */
import { createReadStream } from 'node:fs';
import { createCipheriv, createHash } from 'node:crypto';
import { CHUNK, MIB } from './settings.ts';

/** Writes `size` pseudo-random bytes (xorshift) in 8 MiB slices. */
export async function makeFile(path: string, size: number) {
  const writer = Bun.file(path).writer();
  let x = 0x2545f491;
  const block = new Uint8Array(8 * MIB);
  const words = new Uint32Array(block.buffer);
  for (let written = 0; written < size; written += block.length) {
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x >>> 0;
    }
    writer.write(block.subarray(0, Math.min(block.length, size - written)));
    await writer.flush();
  }
  await writer.end();
}

/** Encrypts `from` into `to` in the format of @sealbox/crypto (chunk i: AES-GCM(key, nonce_i, AAD = u32be(i) || u8(last))). */
export async function encryptFile(from: string, to: string, size: number, key: Uint8Array, fileNonce: Uint8Array) {
  const writer = Bun.file(to).writer();
  const chunks = Math.max(1, Math.ceil(size / CHUNK));
  for (let i = 0; i < chunks; i++) {
    const plain = new Uint8Array(
      await Bun.file(from)
        .slice(i * CHUNK, Math.min(size, (i + 1) * CHUNK))
        .arrayBuffer(),
    );
    const iv = Buffer.from(fileNonce);
    const aad = Buffer.alloc(5);
    aad.writeUInt32BE(i);
    aad[4] = i === chunks - 1 ? 1 : 0;
    for (let j = 0; j < 4; j++) iv[8 + j]! ^= aad[j]!;
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
    writer.write(Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]));
    await writer.flush();
  }
  await writer.end();
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 8 * MIB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
