import { unzipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { crc32Final, crc32Update, planZip, zipStream, type ZipEntry, type ZipLimits } from './zip.ts';

const text = (s: string) => new TextEncoder().encode(s);

function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return out;
}

/** Contents in uneven chunks, as a decrypting stream delivers them. */
function chunks(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  let step = 1;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + step));
      at += step;
      step = step * 3 + 1;
    },
  });
}

async function build(entries: ZipEntry[], contents: Record<string, Uint8Array>, limits?: ZipLimits): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of zipStream(planZip(entries, limits), async (i) => chunks(contents[entries[i]!.path]!), {
    now: new Date(2026, 10, 22, 12, 30, 10),
  }))
    parts.push(part);
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const u32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);
const u16 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint16(at, true);

function bitwiseCrc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe('zip', () => {
  test('CRC-32 gives the check value and agrees with the bit-by-bit definition at every length', () => {
    expect(crc32Final(crc32Update(0xffffffff, text('123456789')))).toBe(0xcbf43926);
    for (const length of [0, 1, 7, 8, 9, 15, 16, 17, 1000, 4099]) {
      const bytes = pattern(length, length);
      expect([length, crc32Final(crc32Update(0xffffffff, bytes))]).toEqual([length, bitwiseCrc(bytes)]);
      // Fed in two pieces at an odd split: the same.
      const split = Math.floor(length / 3);
      expect(crc32Final(crc32Update(crc32Update(0xffffffff, bytes.subarray(0, split)), bytes.subarray(split)))).toBe(
        bitwiseCrc(bytes),
      );
    }
  });

  const entries: ZipEntry[] = [
    { kind: 'dir', path: 'Project' },
    { kind: 'file', path: 'Project/notes.txt', size: 12 },
    { kind: 'dir', path: 'Project/Ünïcødé 写真' },
    { kind: 'file', path: 'Project/Ünïcødé 写真/photo.jpg', size: 5000 },
    { kind: 'file', path: 'Project/empty', size: 0 },
  ];
  const contents = {
    'Project/notes.txt': text('hello, world'),
    'Project/Ünïcødé 写真/photo.jpg': pattern(5000, 1),
    'Project/empty': new Uint8Array(0),
  };

  test('a small archive is exactly as long as announced and reads back byte for byte, without zip64', async () => {
    const zip = await build(entries, contents);
    expect(zip.length).toBe(planZip(entries).length);
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(
      ['Project/', 'Project/empty', 'Project/notes.txt', 'Project/Ünïcødé 写真/', 'Project/Ünïcødé 写真/photo.jpg'].sort(),
    );
    for (const [path, bytes] of Object.entries(contents)) expect([path, files[path]]).toEqual([path, bytes]);
    // No zip64 records: the end record is the last 22 bytes and nothing precedes it but the directory.
    const end = zip.length - 22;
    expect(u32(zip, end)).toBe(0x06054b50);
    expect(u16(zip, end + 10)).toBe(entries.length);
    expect(u32(zip, end - 20)).not.toBe(0x07064b50);
    // Names are flagged UTF-8, files carry a data descriptor, the time is the one given.
    expect(u16(zip, 6)).toBe(0x0800);
    const second = 30 + 'Project/'.length;
    expect(u16(zip, second + 6)).toBe(0x0808);
    expect(u16(zip, second + 10)).toBe((12 << 11) | (30 << 5) | 5);
    expect(u16(zip, second + 12)).toBe(((2026 - 1980) << 9) | (11 << 5) | 22);
  });

  test('past the 32-bit and 16-bit limits it writes zip64 records, and a reader follows them', async () => {
    // Limits lowered so a few KiB reach every zip64 path: a file too big for its size fields,
    // offsets past the limit, and more entries than the end record can count.
    const limits = { u32: 1000, u16: 4 };
    const zip = await build(entries, contents, limits);
    expect(zip.length).toBe(planZip(entries, limits).length);
    const files = unzipSync(zip);
    for (const [path, bytes] of Object.entries(contents)) expect([path, files[path]]).toEqual([path, bytes]);
    const end = zip.length - 22;
    expect(u16(zip, end + 10)).toBe(0xffff);
    expect(u32(zip, end + 16)).toBe(0xffffffff);
    expect(u32(zip, end - 20)).toBe(0x07064b50);
    const zip64End = Number(new DataView(zip.buffer).getBigUint64(end - 20 + 8, true));
    expect(u32(zip, zip64End)).toBe(0x06064b50);
    expect(Number(new DataView(zip.buffer).getBigUint64(zip64End + 32, true))).toBe(entries.length);
  });

  test('an archive stopped part-way stops the file it was reading, even after its last byte', async () => {
    let cancelled = false;
    const file = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(pattern(10, 1));
      },
      cancel() {
        cancelled = true;
      },
    });
    const archive = zipStream(planZip([{ kind: 'file', path: 'a.bin', size: 10 }]), async () => file);
    expect((await archive.next()).value!.length).toBe(30 + 'a.bin'.length);
    expect((await archive.next()).value!.length).toBe(10);
    await archive.return(undefined);
    expect(cancelled).toBe(true);
  });

  test('a path too long for the zip format is refused before anything is written', () => {
    const long: ZipEntry = { kind: 'file', path: 'x'.repeat(0x10000), size: 1 };
    expect(() => planZip([long])).toThrow(/longer than a zip can hold/);
  });

  test('a file that is not its announced size fails the archive', async () => {
    const entry: ZipEntry = { kind: 'file', path: 'a.bin', size: 10 };
    for (const bytes of [pattern(9, 1), pattern(11, 1)]) {
      await expect(build([entry], { 'a.bin': bytes })).rejects.toThrow(/a\.bin/);
    }
  });
});
