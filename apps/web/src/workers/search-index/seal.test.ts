import { deriveSearchIndexKey } from '@sealbox/crypto';
import { describe, expect, test } from 'vitest';
import { CHUNK_ENTRIES, type IndexEntry, IndexOpenError, openIndex, sealIndex } from './seal.ts';

const entry = (n: number): IndexEntry => [
  `id-${n}`,
  n % 7 === 0 ? null : `id-${n - (n % 7)}`,
  `name ${n}.txt`,
  n % 7 === 0,
  n % 7 === 0 ? null : 'text/plain',
  n,
  n + 40,
  1_700_000_000_000 + n,
  1_700_000_000_000 + n,
  'user-a',
];
const entries = Array.from({ length: CHUNK_ENTRIES * 2 + 17 }, (_, n) => entry(n));
const keyOf = (fill: number) => deriveSearchIndexKey(new Uint8Array(32).fill(fill));

describe('sealed search index', () => {
  test('opens as it was sealed, in chunks, with nothing of the names in the clear', async () => {
    const key = await keyOf(1);
    const { meta, chunks } = await sealIndex(key, 'user-a', 'own', 12, entries);
    expect(meta).toEqual({ treeVersion: 12, chunks: 3, names: entries.length });
    const clear = new TextDecoder().decode(new Uint8Array(chunks[0]!.sealed));
    expect(clear).not.toContain('name 1.txt');
    expect(await openIndex(key, 'user-a', 'own', meta, chunks)).toEqual(entries);
  });

  test('a flipped byte, swapped or dropped chunks, another version, account, section or key do not open', async () => {
    const key = await keyOf(1);
    const { meta, chunks } = await sealIndex(key, 'user-a', 'own', 12, entries);
    const flipped = chunks.map((c) => ({ ...c, sealed: c.sealed.slice(0) }));
    new Uint8Array(flipped[1]!.sealed)[5]! ^= 1;
    const swapped = [chunks[1]!, chunks[0]!, chunks[2]!];
    const otherKey = await keyOf(2);
    // Each made only when awaited: a rejection made earlier would count as unhandled meanwhile.
    const attempts = [
      () => openIndex(key, 'user-a', 'own', meta, flipped),
      () => openIndex(key, 'user-a', 'own', meta, swapped),
      () => openIndex(key, 'user-a', 'own', meta, chunks.slice(0, 2)),
      () => openIndex(key, 'user-a', 'own', { ...meta, chunks: 2 }, chunks.slice(0, 2)),
      () => openIndex(key, 'user-a', 'own', { ...meta, treeVersion: 13 }, chunks),
      () => openIndex(key, 'user-b', 'own', meta, chunks),
      () => openIndex(otherKey, 'user-a', 'own', meta, chunks),
      // The own tree's chunks read as what is shared with the user.
      () => openIndex(key, 'user-a', 'shared', meta, chunks),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toBeInstanceOf(IndexOpenError);
  });

  test("a chunk of another build does not open in this one's place", async () => {
    const key = await keyOf(1);
    const older = await sealIndex(key, 'user-a', 'own', 11, entries);
    const newer = await sealIndex(key, 'user-a', 'own', 12, entries);
    const mixed = [newer.chunks[0]!, older.chunks[1]!, newer.chunks[2]!];
    await expect(openIndex(key, 'user-a', 'own', newer.meta, mixed)).rejects.toBeInstanceOf(IndexOpenError);
  });

  test('the index key is non-extractable and differs by root key', async () => {
    const key = await keyOf(1);
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    const sealed = await sealIndex(key, 'user-a', 'own', 1, entries.slice(0, 3));
    expect(await openIndex(await keyOf(1), 'user-a', 'own', sealed.meta, sealed.chunks)).toEqual(entries.slice(0, 3));
  });
});
