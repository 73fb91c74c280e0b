import { DomainError } from '../errors.ts';
import type { FilesPorts } from './deps.ts';

/** What an upload is told when the blob store's disk is full; the bytes it sent are not kept. */
export const STORAGE_FULL_MESSAGE = 'The server is out of storage space; this upload was not saved. Try again later.';

/** A write that failed because the disk (or the filesystem quota under it) is full. */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** What writing and deleting blobs needs of the ports. */
type BlobPorts = Pick<FilesPorts, 'blobs' | 'logger'>;

/** Deletions after commit run a few at a time. */
const DELETE_CONCURRENCY = 8;

/**
 * Writes a blob that must be exactly `expected` bytes. A body that grows past it fails the
 * write as soon as it does (nothing more is read or stored); a shorter one is removed again.
 * Either way nothing is left under the key.
 */
export async function storeExactly(
  deps: BlobPorts,
  key: string,
  body: ReadableStream<Uint8Array> | null,
  expected: number,
): Promise<void> {
  let received = 0;
  const limited = (body ?? emptyStream()).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > expected) {
          controller.error(new DomainError('VALIDATION', `Body is longer than the expected ${expected} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  let size: number;
  try {
    ({ size } = await deps.blobs.put(key, limited));
  } catch (error) {
    await deleteBlobs(deps, [key]);
    if (received > expected) throw new DomainError('VALIDATION', `Body is longer than the expected ${expected} bytes`);
    if (isDiskFull(error)) {
      deps.logger.error('blob store full', { key, error: String(error) });
      throw new DomainError('STORAGE_FULL', STORAGE_FULL_MESSAGE);
    }
    throw error;
  }
  if (size !== expected) {
    await deleteBlobs(deps, [key]);
    throw new DomainError('VALIDATION', `Body has ${size} bytes, expected ${expected}`);
  }
}

/** Best effort: a blob that cannot be deleted now is an orphan the next sweep removes. */
export async function deleteBlobs(deps: BlobPorts, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
    await Promise.all(
      keys
        .slice(i, i + DELETE_CONCURRENCY)
        .map((key) =>
          deps.blobs.delete(key).catch((error: unknown) => deps.logger.warn('blob delete failed', { key, error: String(error) })),
        ),
    );
  }
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}
