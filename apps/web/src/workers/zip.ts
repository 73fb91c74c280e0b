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

interface Planned {
  entry: ZipEntry;
  name: Uint8Array;
  size: number;
  /** Sizes need zip64 fields (local extra, 8-byte descriptor, central extra). */
  big: boolean;
  offset: number;
  crc: number;
}

function place(entries: readonly ZipEntry[], limits: ZipLimits): Planned[] {
  let offset = 0;
  return entries.map((entry) => {
    const name = encoder.encode(entry.kind === 'dir' ? `${entry.path}/` : entry.path);
    if (name.length > 0xffff) throw new Error(`${entry.path.slice(0, 80)}…: path longer than a zip can hold`);
    const size = entry.kind === 'file' ? entry.size : 0;
    const big = size >= limits.u32;
    const planned = { entry, name, size, big, offset, crc: 0 };
    offset += localLength(planned);
    return planned;
  });
}

function localLength(p: Planned): number {
  const header = LOCAL_HEADER + p.name.length + (p.big ? 20 : 0);
  if (p.entry.kind === 'dir') return header;
  return header + p.size + (p.big ? 24 : 16);
}

/** The zip64 extra of a central header: only the values whose own fields overflow, in APPNOTE order. */
function centralExtra(p: Planned, limits: ZipLimits): number[] {
  const values: number[] = [];
  if (p.big) values.push(p.size, p.size);
  if (p.offset >= limits.u32) values.push(p.offset);
  return values;
}

function centralLength(planned: readonly Planned[], limits: ZipLimits): number {
  let length = 0;
  for (const p of planned) {
    const extra = centralExtra(p, limits);
    length += CENTRAL_HEADER + p.name.length + (extra.length > 0 ? 4 + 8 * extra.length : 0);
  }
  return length;
}

function needsZip64End(count: number, centralStart: number, centralSize: number, limits: ZipLimits): boolean {
  return count >= limits.u16 || centralStart >= limits.u32 || centralSize >= limits.u32;
}

/** Where every entry goes, and the archive's exact length. Streams once (it collects the CRCs). */
export interface ZipPlan {
  planned: Planned[];
  limits: ZipLimits;
  centralStart: number;
  length: number;
}

export function planZip(entries: readonly ZipEntry[], limits: ZipLimits = LIMITS): ZipPlan {
  const planned = place(entries, limits);
  const centralStart = planned.reduce((sum, p) => sum + localLength(p), 0);
  const centralSize = centralLength(planned, limits);
  const zip64 = needsZip64End(planned.length, centralStart, centralSize, limits);
  return { planned, limits, centralStart, length: centralStart + centralSize + (zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END };
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
  raw(value: Uint8Array): this {
    this.bytes.set(value, this.at);
    this.at += value.length;
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

function localHeader(p: Planned, stamp: { time: number; date: number }): Uint8Array {
  const file = p.entry.kind === 'file';
  const out = new Out(LOCAL_HEADER + p.name.length + (p.big ? 20 : 0))
    .u32(0x04034b50)
    .u16(p.big ? 45 : 20)
    .u16(FLAG_UTF8 | (file ? FLAG_DESCRIPTOR : 0))
    .u16(0) // stored
    .u16(stamp.time)
    .u16(stamp.date)
    .u32(0) // CRC-32: in the descriptor
    .u32(p.big ? 0xffffffff : 0)
    .u32(p.big ? 0xffffffff : 0)
    .u16(p.name.length)
    .u16(p.big ? 20 : 0)
    .raw(p.name);
  // The local zip64 extra carries both sizes; with a descriptor to follow they are zero here.
  if (p.big) out.u16(ZIP64_EXTRA_ID).u16(16).u64(0).u64(0);
  return out.bytes;
}

function descriptor(p: Planned): Uint8Array {
  const out = new Out(p.big ? 24 : 16).u32(0x08074b50).u32(p.crc);
  return (p.big ? out.u64(p.size).u64(p.size) : out.u32(p.size).u32(p.size)).bytes;
}

function centralDirectory(planned: readonly Planned[], stamp: { time: number; date: number }, limits: ZipLimits): Uint8Array {
  const out = new Out(centralLength(planned, limits));
  for (const p of planned) {
    const extra = centralExtra(p, limits);
    const zip64 = extra.length > 0;
    out
      .u32(0x02014b50)
      // Made by Unix, APPNOTE 4.5: modes in the external attributes. (Made by MS-DOS, Info-ZIP's
      // unzip reads a UTF-8 name differently in the local and central headers of zip64 entries.)
      .u16(0x032d)
      .u16(zip64 ? 45 : 20)
      .u16(FLAG_UTF8 | (p.entry.kind === 'file' ? FLAG_DESCRIPTOR : 0))
      .u16(0)
      .u16(stamp.time)
      .u16(stamp.date)
      .u32(p.crc)
      .u32(p.big ? 0xffffffff : p.size)
      .u32(p.big ? 0xffffffff : p.size)
      .u16(p.name.length)
      .u16(zip64 ? 4 + 8 * extra.length : 0)
      .u16(0) // comment
      .u16(0) // disk
      .u16(0) // internal attributes
      .u32(p.entry.kind === 'dir' ? DIR_ATTRIBUTES : FILE_ATTRIBUTES)
      .u32(clamp(p.offset, limits))
      .raw(p.name);
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
  const { planned, limits } = zip;
  const stamp = dosDateTime(options.now ?? new Date());
  for (const [index, p] of planned.entries()) {
    yield localHeader(p, stamp);
    if (p.entry.kind !== 'file') continue;
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
        if (seen > p.size) throw new Error(`${p.entry.path}: more bytes than its size`);
        crc = crc32Update(crc, value);
        yield value;
      }
    } finally {
      // Stops the file's fetch when the archive ends early (cancelled, or an error above), even
      // after its last byte: the stream may still be checking what follows.
      if (!ended) await reader.cancel().catch(() => {});
    }
    if (seen !== p.size) throw new Error(`${p.entry.path}: ${seen} bytes, expected ${p.size}`);
    p.crc = crc32Final(crc);
    yield descriptor(p);
  }
  const central = centralDirectory(planned, stamp, limits);
  yield central;
  yield end(planned.length, zip.centralStart, central.length, limits);
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
