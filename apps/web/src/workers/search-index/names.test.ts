import { deriveSearchIndexKey } from '@sealbox/crypto';
import { describe, expect, test } from 'vitest';
import { MemoryIndex } from './memory.ts';
import { NamesIndex } from './names.ts';
import { decodeNames, encodeNames, type IndexEntry, IndexOpenError, openNames, sealIndex, sealNames } from './seal.ts';

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const entry = (n: number, parent: number | null, name: string, isDirectory = false): IndexEntry => [
  uuid(n),
  parent === null ? null : uuid(parent),
  name,
  isDirectory,
  isDirectory ? null : 'text/plain',
  n * 10,
  n * 10 + 40,
  1_700_000_000_000 + n,
  1_700_000_000_001 + n,
  'me',
];

/** Names that lower-case to another length, Greek final sigma, an emoji, a newline a hostile writer put in. */
const TRICKY = ['İstanbul PLAN.txt', 'ΣΟΦΟΣ', 'odysseus', '📁 Budget 2026', 'bad\nname', 'ǅemal', 'ß straße', 'plain'];

function tree(): IndexEntry[] {
  const out: IndexEntry[] = [entry(1, null, 'Top', true), entry(2, 1, 'Middle', true), entry(3, 2, 'Deep', true)];
  for (const [i, name] of TRICKY.entries()) out.push(entry(10 + i, i % 3 === 0 ? null : 1 + (i % 3), name));
  for (let n = 100; n < 400; n++) out.push(entry(n, 1 + (n % 3), `entry ${n}${n % 7 === 0 ? ' budget' : ''}.txt`));
  return out;
}

const namesOf = (entries: readonly IndexEntry[]) =>
  new NamesIndex('me', decodeNames(encodeNames(entries)!.buffer, entries.length));
const sorted = (ids: string[]) => [...ids].sort();

describe('names record', () => {
  test('finds what the whole index finds, with the same totals and folders above, whatever the case rules', () => {
    const entries = tree();
    const names = namesOf(entries);
    const whole = new MemoryIndex('me', entries);
    const queries = [
      'budget',
      ' BUDGET ',
      'i̇stanbul',
      'istanbul',
      'σοφος',
      'σοφοσ',
      'ς',
      '📁',
      'name',
      'bad name',
      'ǆ',
      'ss',
      'ß',
      'e',
      'entry 3',
      'zzz',
      'txt',
    ];
    for (const q of queries) {
      const a = names.find(q, 1000);
      const b = whole.find(q, 1000);
      expect({ q, total: a.total }).toEqual({ q, total: b.total });
      expect(sorted(a.results.map((r) => r.id))).toEqual(sorted(b.results.map((r) => r.id)));
      expect(sorted(a.folders.map((r) => r.id))).toEqual(sorted(b.folders.map((r) => r.id)));
    }
    expect(names.find('budget', 1000).partial).toBe(true);
  });

  test('its results carry id, name, folder and kind; the rest waits for the whole index', () => {
    const names = namesOf(tree());
    const found = names.find('ΣΟΦΟΣ', 10);
    expect(found.results).toHaveLength(1);
    expect(found.results[0]).toMatchObject({
      id: uuid(11),
      name: 'ΣΟΦΟΣ',
      parentId: uuid(2),
      isDirectory: false,
      ownerId: 'me',
      decrypted: true,
      size: 0,
      mimeType: null,
    });
    expect(found.folders.map((f) => [f.id, f.name, f.isDirectory])).toEqual([
      [uuid(2), 'Middle', true],
      [uuid(1), 'Top', true],
    ]);
    // A newline a hostile writer put in a name reads as U+FFFD, and no query spans two names.
    expect(names.find('bad\uFFFDname', 10).total).toBe(1);
    expect(names.find('plain\nentry', 10).total).toBe(0);
    expect(names.find('txt\nentry', 10).total).toBe(0);
  });

  test('a first name that starts with U+FEFF keeps it (no byte order mark is dropped)', () => {
    const names = namesOf([entry(1, null, '\uFEFFbom name'), entry(2, null, 'other')]);
    expect(names.find('bom', 5).results.map((r) => r.name)).toEqual(['\uFEFFbom name']);
    expect(names.find('other', 5).results.map((r) => r.id)).toEqual([uuid(2)]);
  });

  test('at most `max` results, but every match counted; nothing for an empty query or index', () => {
    const names = namesOf(tree());
    const found = names.find('entry', 5);
    expect(found.results).toHaveLength(5);
    expect(found.total).toBe(300);
    expect(names.find('   ', 5)).toEqual({ results: [], total: 0, folders: [], partial: true });
    expect(namesOf([]).find('a', 5)).toEqual({ results: [], total: 0, folders: [], partial: true });
  });

  test('no record when an id is not a UUID; a record of the wrong size or shape does not open', () => {
    const entries = tree();
    const bad = entries.map((e, i) => (i === 3 ? (['NOT-A-UUID', ...e.slice(1)] as IndexEntry) : e));
    expect(encodeNames(bad)).toBeUndefined();
    const bytes = encodeNames(entries)!;
    expect(() => decodeNames(bytes.buffer, entries.length + 1)).toThrow(IndexOpenError);
    expect(() => decodeNames(bytes.slice(0, 20).buffer, entries.length)).toThrow(IndexOpenError);
    // A parent out of range, and one name fewer than the record says.
    const badParent = bytes.slice();
    new DataView(badParent.buffer).setInt32(4, entries.length, true);
    expect(() => decodeNames(badParent.buffer, entries.length)).toThrow(IndexOpenError);
    const fewer = encodeNames(entries.slice(0, -1))!;
    const lying = fewer.slice();
    new DataView(lying.buffer).setUint32(0, entries.length, true);
    expect(() => new NamesIndex('me', decodeNames(lying.buffer, entries.length))).toThrow(IndexOpenError);
  });

  test('sealed with its build: another build, account, section, key or a flipped byte do not open it', async () => {
    const entries = tree();
    const key = await deriveSearchIndexKey(new Uint8Array(32).fill(1));
    const { meta } = await sealIndex(key, 'user-a', 'own', 12, entries);
    const record = (await sealNames(key, 'user-a', 'own', meta, entries))!;
    expect(new TextDecoder().decode(new Uint8Array(record.sealed))).not.toContain('Budget');
    const columns = await openNames(key, 'user-a', 'own', meta, record);
    expect(new NamesIndex('me', columns).find('budget', 100).total).toBe(
      new MemoryIndex('me', entries).find('budget', 100).total,
    );
    const flipped = { ...record, sealed: record.sealed.slice(0) };
    new Uint8Array(flipped.sealed)[9]! ^= 1;
    const otherKey = await deriveSearchIndexKey(new Uint8Array(32).fill(2));
    const attempts = [
      () => openNames(key, 'user-a', 'own', meta, flipped),
      () => openNames(key, 'user-a', 'own', { ...meta, treeVersion: 13 }, record),
      () => openNames(key, 'user-a', 'own', { ...meta, names: meta.names - 1 }, record),
      () => openNames(key, 'user-b', 'own', meta, record),
      () => openNames(key, 'user-a', 'shared', meta, record),
      () => openNames(otherKey, 'user-a', 'own', meta, record),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toBeInstanceOf(IndexOpenError);
  });
});
