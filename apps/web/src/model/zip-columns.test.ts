import { describe, expect, test } from 'vitest';
import { OWN_SCOPE } from './browse-scope.ts';
import { type DownloadJob, jobTransfers, wipeJob } from './transfers.ts';
import { columnFile, columnsFit, SECRET_BYTES, ZipColumnsBuilder } from './zip-columns.ts';

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + seed) & 0xff);

describe('zip columns', () => {
  test('entries keep their paths, ids, sizes, keys and nonces as the arrays grow past their first size', () => {
    const builder = new ZipColumnsBuilder();
    for (let i = 0; i < 200; i++) {
      if (i % 10 === 0) builder.addDir(`dir ${i}`);
      else builder.addFile(`file ${i}`, `id-${i}`, bytes(32, i), bytes(12, 100 + i), i * 1000);
    }
    const columns = builder.finish();
    expect(columns.count).toBe(200);
    // Cut to the entries: nothing spare goes to the service worker.
    expect(columns.sizes.length).toBe(200);
    expect(columns.secrets.length).toBe(200 * SECRET_BYTES);
    for (const i of [0, 1, 63, 64, 65, 127, 128, 199]) {
      expect(columns.paths[i]).toBe(i % 10 === 0 ? `dir ${i}` : `file ${i}`);
      const file = columnFile(columns, i);
      if (i % 10 === 0) {
        expect([file.id, file.size]).toEqual(['', -1]);
        expect(file.key.every((b) => b === 0)).toBe(true);
      } else {
        expect([file.id, file.size]).toEqual([`id-${i}`, i * 1000]);
        expect(file.key).toEqual(bytes(32, i));
        expect(file.fileNonce).toEqual(bytes(12, 100 + i));
      }
    }
  });

  test("a file's key is a view of its column: wiping it wipes the column, and only that entry", () => {
    const builder = new ZipColumnsBuilder();
    builder.addFile('a', 'id-a', bytes(32, 1), bytes(12, 2), 5);
    builder.addFile('b', 'id-b', bytes(32, 3), bytes(12, 4), 6);
    const columns = builder.finish();
    columnFile(columns, 0).key.fill(0);
    expect(columns.secrets.subarray(0, 32).every((b) => b === 0)).toBe(true);
    expect(columnFile(columns, 0).fileNonce).toEqual(bytes(12, 2));
    expect(columnFile(columns, 1).key).toEqual(bytes(32, 3));
  });

  test('a job whose columns do not fit their count is told apart', () => {
    const builder = new ZipColumnsBuilder();
    builder.addDir('a');
    builder.addFile('a/b', 'id-b', bytes(32, 1), bytes(12, 2), 5);
    const columns = builder.finish();
    expect(columnsFit(columns)).toBe(true);
    expect(columnsFit({ ...columns, count: 3 })).toBe(false);
    expect(columnsFit({ ...columns, paths: ['a'] })).toBe(false);
    expect(columnsFit({ ...columns, secrets: columns.secrets.subarray(0, SECRET_BYTES) })).toBe(false);
    expect(columnsFit({ ...columns, sizes: [5, -1] as unknown as Float64Array })).toBe(false);
  });

  test("a job's keys are wiped, a file's or a zip's, also once the zip's columns were transferred away", () => {
    const key = bytes(32, 5);
    const file: DownloadJob = {
      kind: 'file',
      name: 'a',
      scope: OWN_SCOPE,
      entries: [{ kind: 'file', path: 'a', id: 'id-a', key, fileNonce: bytes(12, 1), size: 1 }],
    };
    expect(jobTransfers(file)).toEqual([]);
    wipeJob(file);
    expect(key.every((b) => b === 0)).toBe(true);

    const builder = new ZipColumnsBuilder();
    builder.addFile('a', 'id-a', bytes(32, 1), bytes(12, 2), 5);
    const zip: DownloadJob = { kind: 'zip', name: 'a.zip', scope: OWN_SCOPE, columns: builder.finish() };
    wipeJob(zip);
    expect(zip.columns.secrets.every((b) => b === 0)).toBe(true);
    structuredClone(zip, { transfer: jobTransfers(zip) });
    expect(zip.columns.secrets.byteLength).toBe(0);
    expect(() => wipeJob(zip)).not.toThrow();
  });
});
