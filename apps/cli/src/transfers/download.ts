/**
 * `get` of one remote file to a local path (docs/cli.md "get"): the ciphertext streamed from
 * GET /api/file/data/{id} through the decrypt stream (each chunk authenticated: index, last flag
 * and tag) into `<path>.sealbox-part`, appended as it comes, so memory stays constant whatever the
 * size. The plaintext length must equal the size recorded. A get stopped half-way resumes with a
 * Range request from the first chunk not yet written, when a sidecar says the part file belongs to
 * the same content (item id, file nonce, size); a file changed since starts over. Renamed into
 * place only when whole.
 */
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { CHUNK, chunkCipherRange, chunkCount, fromBase64, isCryptoError } from '@sealbox/crypto';
import { CliError, EXIT } from '../cli-error.ts';
import { type Connection, linkQuery, refusal } from '../client.ts';
import type { RemoteItem } from '../remote-tree.ts';
import { batchLength, decryptedBatches } from './decrypt-batches.ts';
import type { Progress } from './progress.ts';

interface Sidecar {
  itemId: string;
  fileNonce: string;
  size: number;
}

async function readSidecar(path: string): Promise<Sidecar | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Sidecar;
  } catch {
    return undefined;
  }
}

/** Plaintext bytes already in the part file that can be kept (whole chunks of the same content). */
async function keptBytes(partPath: string, sidecarPath: string, content: Sidecar): Promise<number> {
  const sidecar = await readSidecar(sidecarPath);
  const same = sidecar?.itemId === content.itemId && sidecar.fileNonce === content.fileNonce && sidecar.size === content.size;
  if (!same) return 0;
  try {
    const { size } = await stat(partPath);
    return Math.min(Math.floor(size / CHUNK) * CHUNK, content.size);
  } catch {
    return 0;
  }
}

async function fetchCipher(conn: Connection, id: string, from: number): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await fetch(`${conn.server}/api/file/data/${encodeURIComponent(id)}${linkQuery(conn)}`, {
      headers: { cookie: conn.cookie, ...(from > 0 ? { range: `bytes=${from}-` } : {}) },
    });
  } catch {
    throw new CliError(`Cannot reach ${conn.server}.`, EXIT.network);
  }
  const expected = from > 0 ? 206 : 200;
  if (response.status !== expected || !response.body) {
    const value: unknown = await response.json().catch(() => undefined);
    throw response.ok
      ? new CliError('The server did not answer the range asked for.', EXIT.failed)
      : refusal(response.status, value, response);
  }
  return response.body;
}

/** Downloads `item` (a file whose key opened) to `dest`; answers the bytes written. */
export async function downloadFile(conn: Connection, item: RemoteItem, dest: string, progress: Progress): Promise<number> {
  if (!item.key || !item.fileNonce) throw new CliError(`${item.name ?? item.id}: its key did not open.`, EXIT.integrity);
  const partPath = `${dest}.sealbox-part`;
  const sidecarPath = `${partPath}.json`;
  const content: Sidecar = { itemId: item.id, fileNonce: item.fileNonce, size: item.size };
  const kept = await keptBytes(partPath, sidecarPath, content);
  await writeFile(sidecarPath, JSON.stringify(content), { mode: 0o600 });
  // Never truncated to zero: ext4 then writes the whole file out when it is closed (its
  // auto_da_alloc, 0.3-0.4 s a GiB here, docs/benchmarks.md "bench/cli"). A part file kept from
  // before is cut back to its whole chunks; anything else starts as a new file.
  if (kept === 0) await rm(partPath, { force: true });
  const handle = await open(partPath, kept > 0 ? 'r+' : 'wx', 0o600);
  let written = kept;
  // The write in flight, awaited before the next and before the file is closed, whatever happens.
  let writing: Promise<unknown> = Promise.resolve();
  try {
    if (kept > 0) await handle.truncate(kept);
    progress.add(kept);
    if (written < item.size || item.size === 0) {
      const startChunk = kept / CHUNK;
      const cipher = await fetchCipher(conn, item.id, chunkCipherRange(startChunk, item.size).start);
      const key = await crypto.subtle.importKey('raw', new Uint8Array(item.key), 'AES-GCM', false, ['decrypt']);
      const nonce = fromBase64(item.fileNonce, 'fileNonce');
      // Each batch is written (its chunks in one writev) while the next is fetched and decrypted.
      const chunks = { from: startChunk, to: chunkCount(item.size) };
      for await (const batch of decryptedBatches(cipher, key, nonce, chunks, item.size)) {
        await writing;
        const length = batchLength(batch);
        writing = handle.writev(batch, written).then(({ bytesWritten }) => {
          if (bytesWritten !== length)
            throw new CliError(`${dest}: the disk took ${bytesWritten} of ${length} bytes.`, EXIT.failed);
        });
        written += length;
        progress.add(length);
      }
      await writing;
    }
  } catch (error) {
    if (isCryptoError(error)) {
      throw new CliError(`${item.name}: the data failed its integrity check (${error.code}).`, EXIT.integrity);
    }
    throw error;
  } finally {
    await writing.catch(() => {});
    await handle.close();
  }
  if (written !== item.size)
    throw new CliError(`${item.name}: shorter than recorded (${written} of ${item.size} bytes).`, EXIT.integrity);
  await rename(partPath, dest);
  await rm(sidecarPath, { force: true });
  progress.done();
  return written;
}
