import { partCount } from '@sealbox/crypto';
import type { BlobStore, ByteRange } from '../../ports/blob-store.ts';
import type { PartRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { visibleItem, type Principal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { invalid, uuid } from './validation.ts';

export interface FileData {
  /** Whole ciphertext size. */
  size: number;
  /** The inclusive range sent, or null for the whole file. */
  range: ByteRange | null;
  /** Bytes in the body. */
  length: number;
  stream: ReadableStream<Uint8Array>;
}

/** RANGE_NOT_SATISFIABLE, with the size for the 416 answer's `Content-Range: bytes * /size`. */
export class RangeNotSatisfiableError extends DomainError {
  readonly size: number;
  constructor(size: number) {
    super('RANGE_NOT_SATISFIABLE', 'Range not satisfiable');
    this.size = size;
  }
}

/**
 * Longer than any Range header this API honours (`bytes=` and two offsets of 16 digits, with
 * room for spaces); anything longer is refused before it is looked at (docs/protocol.md, threat
 * table: "ReDoS on request input").
 */
export const MAX_RANGE_HEADER_CHARS = 100;

/**
 * One `bytes=` range of RFC 9110: `a-b`, `a-` or `-n` (the last n bytes), an end past the file
 * clamped to it. Anything else (other units, several ranges, a start past the end) is 416.
 * Read by hand, not with a pattern: `\s*(\d*)\s*` backtracked on a header of spaces (a 15 KB one
 * held the event loop for half a second).
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | null {
  if (header === null || header === undefined) return null;
  if (header.length > MAX_RANGE_HEADER_CHARS) throw new RangeNotSatisfiableError(size);
  const eq = header.indexOf('=');
  const dash = header.indexOf('-', eq + 1);
  if (eq === -1 || dash === -1 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') throw new RangeNotSatisfiableError(size);
  const first = header.slice(eq + 1, dash).trim();
  const last = header.slice(dash + 1).trim();
  if (!isDigits(first) || !isDigits(last) || (first === '' && last === '')) throw new RangeNotSatisfiableError(size);
  if (first === '') {
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix) || suffix === 0) throw new RangeNotSatisfiableError(size);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) throw new RangeNotSatisfiableError(size);
  return { start, end };
}

/** Only ASCII digits (or nothing): `Number` alone would take ' 1', '1e3' or '0x10'. */
function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/**
 * GET /api/file/data/{id}: the ciphertext, whole or one range, streamed part by part from the
 * blob store (each part read only over the bytes the range needs).
 */
export async function openFileData(
  deps: FilesDeps,
  principal: Principal,
  id: string,
  rangeHeader: string | null,
): Promise<FileData> {
  uuid(id, 'id');
  const { item } = await visibleItem(deps.store, principal, id);
  if (item.isDirectory) throw invalid('A folder has no data');
  return contentData(deps.blobs, item.size, await deps.store.parts(item.id), rangeHeader);
}

/** Content of `size` bytes stored as `parts` (a file's newest, or a version's), whole or one range. */
export function contentData(blobs: BlobStore, size: number, parts: readonly PartRecord[], rangeHeader: string | null): FileData {
  if (parts.length !== partCount(size) || parts.reduce((sum, p) => sum + p.size, 0) !== size) {
    throw new DomainError('INTERNAL', 'Stored parts do not match the file');
  }
  const range = parseRange(rangeHeader, size);
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  return { size, range, length: end - start + 1, stream: streamParts(blobs, parts, start, end) };
}

interface Segment {
  key: string;
  range: ByteRange;
}

/** The parts' pieces covering [start, end], in order. */
export function segmentsFor(parts: readonly PartRecord[], start: number, end: number): Segment[] {
  const segments: Segment[] = [];
  let offset = 0;
  for (const part of parts) {
    const partEnd = offset + part.size - 1;
    if (partEnd >= start && offset <= end) {
      segments.push({
        key: part.blobKey,
        range: { start: Math.max(start, offset) - offset, end: Math.min(end, partEnd) - offset },
      });
    }
    offset += part.size;
  }
  return segments;
}

function streamParts(blobs: BlobStore, parts: readonly PartRecord[], start: number, end: number): ReadableStream<Uint8Array> {
  const segments = segmentsFor(parts, start, end);
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const segment = segments[index++];
          if (!segment) {
            controller.close();
            return;
          }
          reader = (await blobs.get(segment.key, segment.range)).getReader();
        }
        const { done, value } = await reader.read();
        if (done) {
          reader = null;
          continue;
        }
        if (value.byteLength === 0) continue;
        controller.enqueue(value);
        return;
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason).catch(() => {});
    },
  });
}
