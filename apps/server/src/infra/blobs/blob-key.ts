import { DomainError } from '../../domain/errors.ts';
import type { BlobBody, ByteRange } from '../../ports/blob-store.ts';

/** Keys become file names and object names: no separators, no dots, nothing to traverse with. */
const BLOB_KEY = /^[A-Za-z0-9_-]{8,128}$/;

export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || !BLOB_KEY.test(key)) {
    throw new DomainError('VALIDATION', 'Invalid blob key');
  }
}

export function assertBlobPrefix(prefix: string): void {
  if (!/^[A-Za-z0-9_-]{0,128}$/.test(prefix)) throw new DomainError('VALIDATION', 'Invalid blob key prefix');
}

/** Checks a range against the blob's size; returns the exclusive end for slice(). */
export function checkRange(range: ByteRange, size: number): { start: number; endExclusive: number } {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= size) {
    throw new DomainError('RANGE_NOT_SATISFIABLE', `Range ${start}-${end} is outside a blob of ${size} bytes`);
  }
  return { start, endExclusive: end + 1 };
}

export function notFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Blob not found');
}

export async function* chunksOf(body: BlobBody): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  const reader = body.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
