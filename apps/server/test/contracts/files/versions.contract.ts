import { describe, expect, test } from 'bun:test';
import type { VersionRecord } from '../../../src/ports/files.ts';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, inserted, newItem, newPart, newUser, NOW } from './fixture.ts';

/** The versions port (ports/files/versions.ts), with the parts and items writers it works beside, over one adapter. */
export function versionsContract(name: string, makeDb: MakeDb): void {
  describe(`versions port: ${name}`, () => {
    const f = filesFixture(makeDb);
    const version = (itemId: string, overrides: Partial<VersionRecord> = {}): VersionRecord => ({
      id: crypto.randomUUID(),
      itemId,
      size: 2000,
      fileNonce: 'AAAAAAAAAAAAAAAA',
      encryptedMimeType: null,
      mimeTypeNonce: null,
      uploaderId: null,
      createdAt: NOW,
      replacedAt: NOW + 10,
      ...overrides,
    });

    test('a version comes back as inserted, newest content first, with its parts in order', async () => {
      const owner = await newUser(f);
      const [file] = await inserted(f, newItem(owner));
      const older = version(file!.id, { createdAt: NOW - 5, size: 5 * 2 ** 32, uploaderId: owner });
      const newer = version(file!.id, { encryptedMimeType: 'bWltZQ==', mimeTypeNonce: 'BBBBBBBBBBBBBBBB' });
      const parts = [newPart(file!.id, 1, 7), newPart(file!.id, 0)];
      await f.store.transaction(async (tx) => {
        await tx.insertVersion(older, parts);
        await tx.insertVersion(newer, []);
      });
      expect(await f.store.versions(file!.id)).toEqual([newer, older]);
      expect(await f.store.version(older.id)).toEqual(older);
      expect(await f.store.version(crypto.randomUUID())).toBeUndefined();
      expect(await f.store.versionParts(older.id)).toEqual([parts[1]!, parts[0]!]);
      // A version's blobs are named as a file's are: the orphan sweep leaves them alone.
      expect(await f.store.namedBlobKeys(parts.map((p) => p.blobKey))).toEqual(new Set(parts.map((p) => p.blobKey)));
    });

    test('deleteVersions returns the parts it removed, once; deleteVersionsOf takes every version of an item', async () => {
      const owner = await newUser(f);
      const [a, b] = await inserted(f, newItem(owner), newItem(owner));
      const [va, vb1, vb2] = [version(a!.id), version(b!.id), version(b!.id, { createdAt: NOW + 1 })];
      const [pa, pb1, pb2] = [newPart(a!.id, 0), newPart(b!.id, 0), newPart(b!.id, 0)];
      await f.store.transaction(async (tx) => {
        await tx.insertVersion(va, [pa]);
        await tx.insertVersion(vb1, [pb1]);
        await tx.insertVersion(vb2, [pb2]);
      });
      expect(await f.store.transaction((tx) => tx.deleteVersions([va.id]))).toEqual([pa]);
      expect(await f.store.transaction((tx) => tx.deleteVersions([va.id]))).toEqual([]);
      const ofB = await f.store.transaction((tx) => tx.deleteVersionsOf([b!.id]));
      expect(ofB.map((p) => p.blobKey).sort()).toEqual([pb1.blobKey, pb2.blobKey].sort());
      expect(await f.store.versions(b!.id)).toEqual([]);
      expect(await f.store.namedBlobKeys([pa, pb1, pb2].map((p) => p.blobKey))).toEqual(new Set());
    });

    test('versionsReplacedBefore: at or before the time, oldest first, at most the limit', async () => {
      const owner = await newUser(f);
      const [file] = await inserted(f, newItem(owner));
      const base = NOW + 1_000_000;
      const vs = [3, 1, 2, 9].map((d) => version(file!.id, { replacedAt: base + d }));
      await f.store.transaction(async (tx) => {
        for (const v of vs) await tx.insertVersion(v, []);
      });
      const found = (await f.store.versionsReplacedBefore(base + 3, 100)).filter((v) => v.itemId === file!.id);
      expect(found.map((v) => v.replacedAt)).toEqual([base + 1, base + 2, base + 3]);
      expect((await f.store.versionsReplacedBefore(base + 3, 1)).length).toBe(1);
    });

    test("moveParts and replaceContent: a file's parts and content change in place", async () => {
      const owner = await newUser(f);
      const [file, waiting] = await inserted(f, newItem(owner), newItem(owner, { state: 'uploading' }));
      const [p0, p1] = [newPart(waiting!.id, 0), newPart(waiting!.id, 1)];
      const content = {
        size: 2000,
        fileNonce: 'CCCCCCCCCCCCCCCC',
        encryptedMimeType: null,
        mimeTypeNonce: null,
        uploaderId: null,
        modifiedAt: NOW + 99,
      };
      await f.store.transaction(async (tx) => {
        for (const p of [p0, p1]) await tx.putPart(p);
        await tx.moveParts(waiting!.id, file!.id);
        await tx.replaceContent(file!, content);
      });
      expect(await f.store.parts(waiting!.id)).toEqual([]);
      expect(await f.store.parts(file!.id)).toEqual([p0, p1].map((p) => ({ ...p, itemId: file!.id })));
      expect(await f.store.item(file!.id)).toEqual({ ...file!, ...content });
    });
  });
}
