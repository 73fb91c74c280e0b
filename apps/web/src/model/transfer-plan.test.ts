import { describe, expect, it } from 'vitest';
import { displayName } from './item-names.ts';
import {
  PART_TRIES,
  downloadName,
  safeSegment,
  SpeedMeter,
  overallProgress,
  cipherLengthOfPart,
  contentDisposition,
  decideResume,
  isRetryable,
  missingParts,
  planParts,
  plainRangeOfPart,
  retryDelayMs,
  countOf,
  noSpaceText,
  runningText,
  summaryText,
  uniqueName,
  uploadErrorMessage,
  withRetries,
  type PartGeometry,
} from './transfer-plan.ts';

// The real protocol numbers (docs/protocol.md): CHUNK 256 KiB, tag 16, 32 chunks per part.
const CHUNK = 262_144;
const CIPHER_CHUNK = CHUNK + 16;
const PART_BYTES = 32 * CIPHER_CHUNK;
const PART_PLAIN = 32 * CHUNK;
const cipherSize = (p: number) => p + 16 * Math.max(1, Math.ceil(p / CHUNK));
const geometry = (plainSize: number): PartGeometry => ({
  plainSize,
  cipherSize: cipherSize(plainSize),
  partBytes: PART_BYTES,
  partPlainBytes: PART_PLAIN,
});

describe('part planning', () => {
  it('sends a ciphertext of at most one part in one POST', () => {
    expect(planParts(geometry(0), [], CHUNK)).toEqual({ kind: 'single' });
    expect(planParts(geometry(PART_PLAIN), [], CHUNK)).toEqual({ kind: 'single' });
  });

  it('cuts a larger file into parts of PART_BYTES whose lengths add up to the ciphertext', () => {
    const g = geometry(50 * 1024 * 1024);
    const plan = planParts(g, [], CHUNK);
    expect(plan).toMatchObject({ kind: 'parts', total: 7, startPart: 0, startChunk: 0, startByte: 0 });
    if (plan.kind !== 'parts') throw new Error('unreachable');
    expect(plan.send).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const lengths = plan.send.map((n) => cipherLengthOfPart(g, n));
    expect(lengths.slice(0, 6).every((l) => l === PART_BYTES)).toBe(true);
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(g.cipherSize);
    // Each part's plaintext encrypts to exactly that part's ciphertext.
    for (const n of plan.send) {
      const { start, end } = plainRangeOfPart(g, n);
      expect(end - start + 16 * Math.ceil((end - start) / CHUNK)).toBe(cipherLengthOfPart(g, n));
    }
  });

  it('one byte past a part boundary makes a second part of one chunk', () => {
    const g = geometry(PART_PLAIN + 1);
    expect(planParts(g, [], CHUNK)).toMatchObject({ kind: 'parts', total: 2 });
    expect(cipherLengthOfPart(g, 1)).toBe(17);
  });

  it("resumes at the first missing part, from that part's first chunk, sending only the missing ones", () => {
    const g = geometry(50 * 1024 * 1024);
    const plan = planParts(g, [0, 1, 3, 6], CHUNK);
    expect(plan).toEqual({ kind: 'parts', total: 7, send: [2, 4, 5], startPart: 2, startChunk: 64, startByte: 2 * PART_PLAIN });
    expect(missingParts(3, [0, 1, 2])).toEqual([]);
  });
});

describe('retry policy', () => {
  it('retries network failures and 5xx, never 4xx', () => {
    expect(isRetryable({ networkError: true })).toBe(true);
    expect(isRetryable({ status: 500 })).toBe(true);
    expect(isRetryable({ status: 503 })).toBe(true);
    for (const status of [200, 204, 400, 402, 404, 405, 409, 429]) expect(isRetryable({ status })).toBe(false);
  });

  it('backs off 500 ms then 1.5 s, within ±20 %', () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(500);
    expect(retryDelayMs(2, () => 0.5)).toBe(1500);
    expect(retryDelayMs(1, () => 0)).toBe(400);
    expect(retryDelayMs(1, () => 1)).toBe(600);
  });

  it(`tries a failing part ${PART_TRIES} times, then gives the last answer`, async () => {
    const slept: number[] = [];
    let calls = 0;
    const response = await withRetries(
      async () => {
        calls++;
        return new Response(null, { status: 503 });
      },
      { sleep: async (ms) => void slept.push(ms), random: () => 0.5 },
    );
    expect(calls).toBe(3);
    expect(response.status).toBe(503);
    expect(slept).toEqual([500, 1500]);
  });

  it('recovers from network errors, and does not retry a 402', async () => {
    let calls = 0;
    const ok = await withRetries(
      async () => {
        if (++calls < 3) throw new TypeError('Failed to fetch');
        return new Response(null, { status: 204 });
      },
      { sleep: async () => {} },
    );
    expect([calls, ok.status]).toEqual([3, 204]);

    calls = 0;
    const quota = await withRetries(
      async () => {
        calls++;
        return new Response(null, { status: 402 });
      },
      { sleep: async () => {} },
    );
    expect([calls, quota.status]).toEqual([1, 402]);

    calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new TypeError('offline');
        },
        { sleep: async () => {} },
      ),
    ).rejects.toThrow('offline');
    expect(calls).toBe(3);
  });
});

describe('resume decision', () => {
  const record = { size: 100, lastModified: 1, partHashes: { 0: 'aa', 1: 'bb' } };

  it('resumes when every recorded part hashes the same', () => {
    expect(decideResume(record, { size: 100 }, { 0: 'aa', 1: 'bb' })).toEqual({ resume: true });
    expect(decideResume({ ...record, partHashes: {} }, { size: 100 }, {})).toEqual({ resume: true });
  });

  it('starts afresh when any recorded part differs, or the size does', () => {
    expect(decideResume(record, { size: 100 }, { 0: 'aa', 1: 'bc' })).toEqual({ resume: false, reason: 'hash' });
    expect(decideResume(record, { size: 100 }, { 0: 'aa' })).toEqual({ resume: false, reason: 'hash' });
    expect(decideResume(record, { size: 101 }, { 0: 'aa', 1: 'bb' })).toEqual({ resume: false, reason: 'size' });
  });
});

describe('messages', () => {
  it('summaries are the texts of docs/product.md "States"', () => {
    expect(summaryText(0, 0)).toBeUndefined();
    expect(summaryText(3, 0)).toBe('All 3 files uploaded successfully!');
    expect(summaryText(2, 2)).toBe('2 files uploaded successfully, 2 files failed.');
    expect(summaryText(0, 4)).toBe('All 4 files failed to upload. Check errors below.');
  });

  it('one file is said in the singular, the exact texts kept for more', () => {
    expect(summaryText(1, 0)).toBe('1 file uploaded successfully!');
    expect(summaryText(0, 1)).toBe('1 file failed to upload. Check errors below.');
    expect(summaryText(2, 1)).toBe('2 files uploaded successfully, 1 file failed.');
    expect(summaryText(1, 2)).toBe('1 file uploaded successfully, 2 files failed.');
    expect(summaryText(1, 1)).toBe('1 file uploaded successfully, 1 file failed.');
  });

  it('countOf is singular for one only', () => {
    expect([0, 1, 3].map((n) => countOf(n, 'file'))).toEqual(['0 files', '1 file', '3 files']);
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });

  it('the running header counts uploads and downloads apart', () => {
    expect(runningText(1, 0)).toBe('Uploading 1 file');
    expect(runningText(3, 1)).toBe('Uploading 3 files · Downloading 1 item');
    expect(runningText(0, 2)).toBe('Downloading 2 items');
  });

  it('over quota says used and free of total, and what the file needs', () => {
    const MIB = 1024 * 1024;
    expect(noSpaceText({ usedSpace: 0.2 * MIB, totalSpace: 10 * MIB }, 25 * MIB)).toBe(
      'Not enough storage space: 205 KiB used, 9.8 MiB free of 10.0 MiB; this file needs 25.0 MiB',
    );
    // What unfinished uploads hold counts as used; never more than the whole.
    expect(noSpaceText({ usedSpace: 9 * MIB, reservedSpace: 2 * MIB, totalSpace: 10 * MIB }, 1024)).toBe(
      'Not enough storage space: 10.0 MiB used, 0 B free of 10.0 MiB; this file needs 1.0 KiB',
    );
    expect(noSpaceText(undefined, 1024)).toBe('Not enough storage space');
  });

  it('402 and 405 are the upload messages of docs/product.md "Messages"', () => {
    expect(uploadErrorMessage(402)).toBe('Not enough storage space');
    expect(uploadErrorMessage(405)).toBe('File is too large');
    expect(uploadErrorMessage(429, '30')).toBe('You are sending too many requests. Please slow down. Try again in 30 seconds.');
    expect(uploadErrorMessage(429, null)).toBe('You are sending too many requests. Please slow down.');
  });

  it('download names: unique, and a UTF-8 Content-Disposition attachment', () => {
    const taken = new Set<string>();
    expect(['a.txt', 'A.txt', 'a.txt', 'b'].map((n) => uniqueName(n, taken))).toEqual(['a.txt', 'A (2).txt', 'a (3).txt', 'b']);
    expect(contentDisposition('résumé "1".pdf')).toBe(
      // The quotes go in both forms: Windows refuses them in a file name.
      `attachment; filename="r_sum_ _1_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20_1_.pdf`,
    );
    expect(contentDisposition('../x/y')).toContain('filename=".._x_y"');
  });

  it('speed is bytes per second over the window', () => {
    const meter = new SpeedMeter(3000);
    expect(meter.sample(0, 0)).toBe(0);
    expect(meter.sample(1000, 500)).toBe(2000);
    expect(meter.sample(4000, 2000)).toBe(2000);
  });

  it('overall progress weighs by size, leaves out stopped transfers, and estimates time left from the speed', () => {
    const mib = 1024 * 1024;
    const running = { size: 3 * mib, fraction: 0.5, speed: mib, state: 'running' as const };
    const done = { size: mib, fraction: 1, speed: 0, state: 'done' as const };
    const stopped = { size: 100 * mib, fraction: 0.1, speed: 0, state: 'stopped' as const };
    const now = overallProgress([running, done, stopped]);
    expect(now.fraction).toBeCloseTo(2.5 / 4);
    expect(now.speed).toBe(mib);
    expect(now.secondsLeft).toBeCloseTo(1.5);
    // Nothing moving yet: no made-up estimate.
    expect(overallProgress([{ ...running, speed: 0 }]).secondsLeft).toBeUndefined();
    expect(overallProgress([done, stopped])).toEqual({ fraction: 1, speed: 0, secondsLeft: undefined });
    expect(overallProgress([stopped]).fraction).toBe(0);
  });
});

describe('download names', () => {
  it('names a download as the page lists it and the service worker saves it', () => {
    expect(downloadName([{ name: 'a.txt', isDirectory: false }])).toBe('a.txt');
    expect(downloadName([{ name: 'Photos', isDirectory: true }])).toBe('Photos.zip');
    expect(downloadName([{ name: null, isDirectory: true }])).toBe('Encrypted directory.zip');
    expect(downloadName([{ name: '', isDirectory: false }])).toBe('Encrypted File');
    expect(downloadName([{ name: 'a/b', isDirectory: false }])).toBe('a_b');
    const two = [
      { name: 'a.txt', isDirectory: false },
      { name: 'b', isDirectory: true },
    ];
    expect(downloadName(two)).toBe('Sealbox files.zip');
    expect(displayName({ name: null, isDirectory: false })).toBe('Encrypted File');
  });

  it('a name cannot reorder what is shown nor pass for another type when saved (bidi controls)', () => {
    const spoof = 'invoice\u202Efdp.exe';
    expect(displayName({ name: spoof, isDirectory: false })).toBe('invoice[U+202E]fdp.exe');
    expect(downloadName([{ name: spoof, isDirectory: false }])).toBe('invoice[U+202E]fdp.exe');
    for (const control of '\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C')
      expect(safeSegment(`a${control}b`)).not.toContain(control);
  });

  it('a saved name is one that Windows, macOS and Linux all accept as one segment', () => {
    expect(safeSegment('C:evil.txt')).toBe('C_evil.txt');
    expect(safeSegment('..\\..\\boot.ini')).toBe('.._.._boot.ini');
    expect(safeSegment('a<b>c:d"e|f?g*h')).toBe('a_b_c_d_e_f_g_h');
    expect(safeSegment('CON')).toBe('_CON');
    expect(safeSegment('nul.txt')).toBe('_nul.txt');
    expect(safeSegment('com1.log')).toBe('_com1.log');
    expect(safeSegment('LPT9')).toBe('_LPT9');
    expect(safeSegment('console.txt')).toBe('console.txt');
    expect(safeSegment('notes. ')).toBe('notes_');
    expect(safeSegment('..')).toBe('__');
    expect(safeSegment('   ')).toBe('_');
    expect(safeSegment('x'.repeat(300))).toHaveLength(255);
  });
});
