/**
 * A zip archive written as a stream (APPNOTE 6.3): entries stored, not compressed (the bytes are
 * mostly media and already-compressed formats), names in UTF-8, each file's CRC-32 in a data
 * descriptor after its bytes, since it is known only once they have gone by.
 *
 * Zip64 records are written where a value does not fit its 32-bit field (an archive past 4 GiB,
 * which a folder of a few large files reaches) or the 16-bit entry count, and only there, so
 * small archives stay readable by the oldest tools. Every size is known in advance, so the
 * archive's exact length is too: the download can show real progress.
 */

export type ZipEntry = { kind: 'dir'; path: string } | { kind: 'file'; path: string; size: number };

/**
 * The archive's entries as the plan reads them, by index: a download's job holds them as columns
 * (model/zip-columns.ts), not an object per entry, so 10,000 files cost a few hundred bytes each.
 */
export interface ZipSource {
  count: number;
  path(index: number): string;
  /** The file's size; null for a folder. */
  size(index: number): number | null;
}

/** A source over entry objects (tests, small archives). */
export function entriesSource(entries: readonly ZipEntry[]): ZipSource {
  return {
    count: entries.length,
    path: (i) => entries[i]!.path,
    size: (i) => {
      const entry = entries[i]!;
      return entry.kind === 'file' ? entry.size : null;
    },
  };
}

/** Where values stop fitting their fields. Tests lower them to reach the zip64 paths cheaply. */
export interface ZipLimits {
  /** Largest value a 32-bit size or offset field can hold (0xFFFFFFFF itself means "see zip64"). */
  u32: number;
  /** Largest entry count the 16-bit fields can hold. */
  u16: number;
}
const LIMITS: ZipLimits = { u32: 0xffffffff, u16: 0xffff };

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END = 22;
const ZIP64_END = 56;
const ZIP64_LOCATOR = 20;
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
const ZIP64_EXTRA_ID = 0x0001;
/** Unix mode in the high half (drwxr-xr-x, -rw-r--r--), the MS-DOS directory bit in the low. */
const DIR_ATTRIBUTES = ((0o040755 << 16) | 0x10) >>> 0;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

const encoder = new TextEncoder();

/** An entry's name in the archive: a folder's ends in '/'. */
const nameOf = (source: ZipSource, i: number) => (source.size(i) === null ? `${source.path(i)}/` : source.path(i));

/** One reused buffer to measure names in UTF-8, so planning allocates nothing per entry. */
let scratch = new Uint8Array(1024);
function utf8Length(text: string): number {
  // encodeInto writes at most 3 bytes per UTF-16 unit.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  return encoder.encodeInto(text, scratch).written;
}

/** Where every entry goes, and the archive's exact length. Streams once (it collects the CRCs). */
export interface ZipPlan {
  source: ZipSource;
  limits: ZipLimits;
  /** Per entry: its name's length in UTF-8, its local header's offset, its CRC-32 once written. */
  nameLengths: Uint32Array;
  offsets: Float64Array;
  crcs: Uint32Array;
  centralStart: number;
  centralSize: number;
  length: number;
}

/** Sizes need zip64 fields (local extra, 8-byte descriptor, central extra). */
const isBig = (size: number, limits: ZipLimits) => size >= limits.u32;
const sizeOf = (source: ZipSource, i: number) => source.size(i) ?? 0;

function localLength(plan: ZipPlan, i: number): number {
  const size = sizeOf(plan.source, i);
  const big = isBig(size, plan.limits);
  const header = LOCAL_HEADER + plan.nameLengths[i]! + (big ? 20 : 0);
  if (plan.source.size(i) === null) return header;
  return header + size + (big ? 24 : 16);
}

/** The zip64 extra of a central header: only the values whose own fields overflow, in APPNOTE order. */
function centralExtra(plan: ZipPlan, i: number): number[] {
  const values: number[] = [];
  const size = sizeOf(plan.source, i);
  if (isBig(size, plan.limits)) values.push(size, size);
  if (plan.offsets[i]! >= plan.limits.u32) values.push(plan.offsets[i]!);
  return values;
}

const centralEntryLength = (plan: ZipPlan, i: number) => {
  const extra = centralExtra(plan, i).length;
  return CENTRAL_HEADER + plan.nameLengths[i]! + (extra > 0 ? 4 + 8 * extra : 0);
};

function needsZip64End(count: number, centralStart: number, centralSize: number, limits: ZipLimits): boolean {
  return count >= limits.u16 || centralStart >= limits.u32 || centralSize >= limits.u32;
}

export function planZip(entries: readonly ZipEntry[] | ZipSource, limits: ZipLimits = LIMITS): ZipPlan {
  const source = 'count' in entries ? entries : entriesSource(entries as readonly ZipEntry[]);
  const { count } = source;
  const plan: ZipPlan = {
    source,
    limits,
    nameLengths: new Uint32Array(count),
    offsets: new Float64Array(count),
    crcs: new Uint32Array(count),
    centralStart: 0,
    centralSize: 0,
    length: 0,
  };
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const length = utf8Length(nameOf(source, i));
    if (length > 0xffff) throw new Error(`${source.path(i).slice(0, 80)}…: path longer than a zip can hold`);
    plan.nameLengths[i] = length;
    plan.offsets[i] = offset;
    offset += localLength(plan, i);
  }
  plan.centralStart = offset;
  for (let i = 0; i < count; i++) plan.centralSize += centralEntryLength(plan, i);
  const zip64 = needsZip64End(count, plan.centralStart, plan.centralSize, limits);
  plan.length = plan.centralStart + plan.centralSize + (zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END;
  return plan;
}

/** Little-endian writer over a fresh buffer of known length. */
class Out {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  private at = 0;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
  }
  u16(value: number): this {
    this.view.setUint16(this.at, value, true);
    this.at += 2;
    return this;
  }
  u32(value: number): this {
    this.view.setUint32(this.at, value >>> 0, true);
    this.at += 4;
    return this;
  }
  u64(value: number): this {
    this.view.setBigUint64(this.at, BigInt(value), true);
    this.at += 8;
    return this;
  }
  /** `value` in UTF-8, which must take `length` bytes (measured by planZip). */
  text(value: string, length: number): this {
    encoder.encodeInto(value, this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return this;
  }
}

/** MS-DOS time and date fields (local time, 2-second steps, years 1980-2107). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getFullYear(), 1980), 2107);
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

const clamp = (value: number, limits: ZipLimits) => (value >= limits.u32 ? 0xffffffff : value);

function localHeader(plan: ZipPlan, i: number, stamp: { time: number; date: number }): Uint8Array {
  const file = plan.source.size(i) !== null;
  const big = isBig(sizeOf(plan.source, i), plan.limits);
  const nameLength = plan.nameLengths[i]!;
  const out = new Out(LOCAL_HEADER + nameLength + (big ? 20 : 0))
    .u32(0x04034b50)
    .u16(big ? 45 : 20)
    .u16(FLAG_UTF8 | (file ? FLAG_DESCRIPTOR : 0))
    .u16(0) // stored
    .u16(stamp.time)
    .u16(stamp.date)
    .u32(0) // CRC-32: in the descriptor
    .u32(big ? 0xffffffff : 0)
    .u32(big ? 0xffffffff : 0)
    .u16(nameLength)
    .u16(big ? 20 : 0)
    .text(nameOf(plan.source, i), nameLength);
  // The local zip64 extra carries both sizes; with a descriptor to follow they are zero here.
  if (big) out.u16(ZIP64_EXTRA_ID).u16(16).u64(0).u64(0);
  return out.bytes;
}

function descriptor(plan: ZipPlan, i: number): Uint8Array {
  const size = sizeOf(plan.source, i);
  const big = isBig(size, plan.limits);
  const out = new Out(big ? 24 : 16).u32(0x08074b50).u32(plan.crcs[i]!);
  return (big ? out.u64(size).u64(size) : out.u32(size).u32(size)).bytes;
}

function centralDirectory(plan: ZipPlan, stamp: { time: number; date: number }): Uint8Array {
  const { source, limits } = plan;
  const out = new Out(plan.centralSize);
  for (let i = 0; i < source.count; i++) {
    const extra = centralExtra(plan, i);
    const zip64 = extra.length > 0;
    const size = sizeOf(source, i);
    const big = isBig(size, limits);
    const file = source.size(i) !== null;
    out
      .u32(0x02014b50)
      // Made by Unix, APPNOTE 4.5: modes in the external attributes. (Made by MS-DOS, Info-ZIP's
      // unzip reads a UTF-8 name differently in the local and central headers of zip64 entries.)
      .u16(0x032d)
      .u16(zip64 ? 45 : 20)
      .u16(FLAG_UTF8 | (file ? FLAG_DESCRIPTOR : 0))
      .u16(0)
      .u16(stamp.time)
      .u16(stamp.date)
      .u32(plan.crcs[i]!)
      .u32(big ? 0xffffffff : size)
      .u32(big ? 0xffffffff : size)
      .u16(plan.nameLengths[i]!)
      .u16(zip64 ? 4 + 8 * extra.length : 0)
      .u16(0) // comment
      .u16(0) // disk
      .u16(0) // internal attributes
      .u32(file ? FILE_ATTRIBUTES : DIR_ATTRIBUTES)
      .u32(clamp(plan.offsets[i]!, limits))
      .text(nameOf(source, i), plan.nameLengths[i]!);
    if (zip64) {
      out.u16(ZIP64_EXTRA_ID).u16(8 * extra.length);
      for (const value of extra) out.u64(value);
    }
  }
  return out.bytes;
}

function end(count: number, centralStart: number, centralSize: number, limits: ZipLimits): Uint8Array {
  const zip64 = needsZip64End(count, centralStart, centralSize, limits);
  const out = new Out((zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END);
  if (zip64) {
    out
      .u32(0x06064b50)
      .u64(ZIP64_END - 12)
      .u16(45)
      .u16(45)
      .u32(0)
      .u32(0)
      .u64(count)
      .u64(count)
      .u64(centralSize)
      .u64(centralStart);
    out
      .u32(0x07064b50)
      .u32(0)
      .u64(centralStart + centralSize)
      .u32(1);
  }
  const entries = count >= limits.u16 ? 0xffff : count;
  return out
    .u32(0x06054b50)
    .u16(0)
    .u16(0)
    .u16(entries)
    .u16(entries)
    .u32(clamp(centralSize, limits))
    .u32(clamp(centralStart, limits))
    .u16(0).bytes;
}

/**
 * The archive's bytes, in order. `open(i)` gives the contents of the plan's entry i when the archive
 * reaches it, so only one file is read at a time; a file whose contents are not exactly its
 * announced size fails the archive rather than make one whose offsets lie.
 */
export async function* zipStream(
  zip: ZipPlan,
  open: (index: number) => Promise<ReadableStream<Uint8Array>>,
  options: { now?: Date } = {},
): AsyncGenerator<Uint8Array> {
  const { source } = zip;
  const stamp = dosDateTime(options.now ?? new Date());
  for (let index = 0; index < source.count; index++) {
    yield localHeader(zip, index, stamp);
    const size = source.size(index);
    if (size === null) continue;
    let crc = CRC_START;
    let seen = 0;
    let ended = false;
    const reader = (await open(index)).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        ended = done;
        if (done) break;
        seen += value.length;
        if (seen > size) throw new Error(`${source.path(index)}: more bytes than its size`);
        crc = crc32Update(crc, value);
        yield value;
      }
    } finally {
      // Stops the file's fetch when the archive ends early (cancelled, or an error above), even
      // after its last byte: the stream may still be checking what follows.
      if (!ended) await reader.cancel().catch(() => {});
    }
    if (seen !== size) throw new Error(`${source.path(index)}: ${seen} bytes, expected ${size}`);
    zip.crcs[index] = crc32Final(crc);
    yield descriptor(zip, index);
  }
  const central = centralDirectory(zip, stamp);
  yield central;
  yield end(source.count, zip.centralStart, central.length, zip.limits);
}

/* CRC-32 (ISO-HDLC, the zip one), eight table lookups per step ("slicing by 8"). */
const CRC_START = 0xffffffff;
const CRC_TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 8; t++)
      tables[t * 256 + n] = (tables[(t - 1) * 256 + n]! >>> 8) ^ tables[tables[(t - 1) * 256 + n]! & 0xff]!;
  }
  return tables;
})();

export function crc32Update(crc: number, bytes: Uint8Array): number {
  const t = CRC_TABLES;
  let c = crc | 0;
  let i = 0;
  const fast = bytes.length - (bytes.length % 8);
  for (; i < fast; i += 8) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c =
      t[1792 + (c & 0xff)]! ^
      t[1536 + ((c >>> 8) & 0xff)]! ^
      t[1280 + ((c >>> 16) & 0xff)]! ^
      t[1024 + (c >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

export const crc32Final = (crc: number) => (crc ^ 0xffffffff) >>> 0;
