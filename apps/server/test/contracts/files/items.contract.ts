import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../../src/domain/errors.ts';
import type { MakeDb } from '../db.contract.ts';
import { caught, filesFixture, inserted, newFolder, newItem, newUser, NOW } from './fixture.ts';

/** The items port (ports/files/items.ts) over one adapter. */
export function itemsContract(name: string, makeDb: MakeDb): void {
  describe(`items port: ${name}`, () => {
    const f = filesFixture(makeDb);
    const itemCount = async (userId: string) => (await f.quota.quota(userId))!.itemCount;
    const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

    test('an item comes back as inserted, counted once in its owner item count; a taken id is CONFLICT', async () => {
      const owner = await newUser(f);
      const folder = newFolder(owner, { keyNonce: 'bm9uY2U=', createdAt: NOW + 2 ** 33 });
      const file = newItem(owner, {
        parentId: folder.id,
        uploaderId: null,
        encryptedMimeType: 'bWltZQ==',
        mimeTypeNonce: 'bm9uY2U=',
        fileNonce: 'ZmlsZQ==',
        size: 5 * 2 ** 32 + 7,
        state: 'uploading',
      });
      await inserted(f, folder, file);
      expect(await f.store.item(file.id)).toEqual(file);
      expect(await f.store.item(folder.id)).toEqual(folder);
      expect(await f.store.item(crypto.randomUUID())).toBeUndefined();
      expect((await f.store.items([file.id, folder.id, file.id, crypto.randomUUID()])).sort((a, b) => a.size - b.size)).toEqual([
        folder,
        file,
      ]);
      expect(await itemCount(owner)).toBe(2);
      const error = await caught(inserted(f, { ...file, parentId: null }));
      expect((error as DomainError).code).toBe('CONFLICT');
      expect(await itemCount(owner)).toBe(2);
    });

    test('children, childIds and topLevel: listing order, state and page', async () => {
      const owner = await newUser(f);
      const other = await newUser(f);
      const folder = newFolder(owner);
      const [a, b, c] = [3, 1, 2].map((t) => newItem(owner, { parentId: folder.id, createdAt: NOW + t }));
      // Same time: the id decides.
      const [tie1, tie2] = [newItem(owner, { parentId: folder.id }), newItem(owner, { parentId: folder.id })].sort((x, y) =>
        x.id < y.id ? -1 : 1,
      );
      const pending = newItem(owner, { parentId: folder.id, state: 'uploading', createdAt: NOW + 4 });
      const second = newFolder(owner, { createdAt: NOW + 1 });
      const inSecond = newItem(owner, { parentId: second.id, createdAt: NOW + 5 });
      await inserted(f, folder, second, a!, b!, c!, tie1!, tie2!, pending, inSecond, newItem(other));
      const ready = [tie1!, tie2!, b!, c!, a!];
      expect(ids(await f.store.children([folder.id], { state: 'ready' }))).toEqual(ids(ready));
      expect(await f.store.children([folder.id], { state: 'ready' })).toEqual(ready);
      expect(ids(await f.store.children([folder.id]))).toEqual(ids([...ready, pending]));
      expect(ids(await f.store.children([folder.id], { state: 'ready', page: { limit: 2, offset: 1 } }))).toEqual(
        ids([tie2!, b!]),
      );
      expect(ids(await f.store.children([second.id, folder.id], { state: 'ready' }))).toEqual(ids([...ready, inSecond]));
      await expect(f.store.children([second.id, folder.id], { page: { limit: 1, offset: 0 } })).rejects.toThrow();
      expect(await f.store.childIds(folder.id, { state: 'uploading' })).toEqual([pending.id]);
      expect(await f.store.childIds(folder.id)).toEqual(ids([...ready, pending]));
      expect(ids(await f.store.topLevel(owner, { state: 'ready' }))).toEqual(ids([folder, second]));
      expect(ids(await f.store.topLevel(owner, { page: { limit: 5, offset: 1 } }))).toEqual([second.id]);
      expect((await f.store.someChildren(folder.id, 3)).length).toBe(3);
      expect(ids(await f.store.someChildren(folder.id, 100)).sort()).toEqual(ids([...ready, pending]).sort());
      expect([...(await f.store.foldersWithChildren([folder.id, second.id, pending.id, crypto.randomUUID()]))].sort()).toEqual(
        [folder.id, second.id].sort(),
      );
    });

    test('ancestors nearest first, ancestorsOf each once, and the height of a subtree', async () => {
      const owner = await newUser(f);
      const top = newFolder(owner);
      const mid = newFolder(owner, { parentId: top.id });
      const low = newFolder(owner, { parentId: mid.id });
      const file = newItem(owner, { parentId: low.id });
      const beside = newItem(owner, { parentId: mid.id });
      await inserted(f, top, mid, low, file, beside);
      expect(ids(await f.store.ancestors(file))).toEqual(ids([low, mid, top]));
      expect(await f.store.ancestors(top)).toEqual([]);
      expect(ids(await f.store.ancestorsOf([file, beside, low])).sort()).toEqual(ids([low, mid, top]).sort());
      expect(await f.store.subtreeHeight(top.id, 64)).toBe(4);
      expect(await f.store.subtreeHeight(top.id, 2)).toBe(3);
      expect(await f.store.subtreeHeight(low.id, 64)).toBe(2);
      expect(await f.store.subtreeHeight(file.id, 64)).toBe(1);
    });

    test('updateItem changes only what it is given', async () => {
      const owner = await newUser(f);
      const [folder, file] = await inserted(f, newFolder(owner), newItem(owner, { state: 'uploading' }));
      const changes = {
        parentId: folder!.id,
        encryptedFileName: 'bmV3',
        nameNonce: 'BBBBBBBBBBBBBBBB',
        encryptedKey: 'bmV3a2V5',
        keyNonce: 'a24=',
        state: 'ready' as const,
        modifiedAt: NOW + 9,
      };
      await f.store.transaction(async (tx) => {
        await tx.updateItem(file!.id, {});
        await tx.updateItem(file!.id, { modifiedAt: NOW + 1 });
      });
      expect(await f.store.item(file!.id)).toEqual({ ...file!, modifiedAt: NOW + 1 });
      await f.store.transaction((tx) => tx.updateItem(file!.id, changes));
      expect(await f.store.item(file!.id)).toEqual({ ...file!, ...changes });
    });

    test('a folder marked deleting is in state deleting only, and listed among deletes in progress', async () => {
      const owner = await newUser(f);
      const [folder, inside] = await inserted(f, newFolder(owner), newItem(owner));
      await f.store.transaction((tx) => tx.updateItem(inside!.id, { parentId: folder!.id }));
      await f.store.transaction((tx) => tx.markDeleting(folder!.id, NOW + 5));
      expect((await f.store.item(folder!.id))?.state).toBe('deleting');
      expect(await f.store.topLevel(owner, { state: 'ready' })).toEqual([]);
      expect(ids(await f.store.topLevel(owner, { state: 'deleting' }))).toEqual([folder!.id]);
      expect(ids(await f.store.children([folder!.id], { state: 'ready' }))).toEqual([inside!.id]);
      expect(ids(await f.store.deletesInProgress(1000))).toContain(folder!.id);
    });

    test('deleteItems: children first, ids already gone skipped, each counted off once', async () => {
      const owner = await newUser(f);
      const [folder, a, b] = await inserted(f, newFolder(owner), newItem(owner), newItem(owner));
      await f.store.transaction(async (tx) => {
        await tx.updateItem(a!.id, { parentId: folder!.id });
        await tx.updateItem(b!.id, { parentId: folder!.id });
      });
      await f.store.transaction((tx) => tx.deleteItems([a!.id]));
      expect(await itemCount(owner)).toBe(2);
      await f.store.transaction((tx) => tx.deleteItems([a!.id, b!.id, folder!.id]));
      expect(await f.store.items([folder!.id, a!.id, b!.id])).toEqual([]);
      expect(await itemCount(owner)).toBe(0);
    });
  });
}
