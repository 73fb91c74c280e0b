import { describe, expect, test } from 'bun:test';
import type { UploadRecord } from '../../../src/ports/files.ts';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, inserted, newFolder, newItem, newUser, NOW, type FilesFixture } from './fixture.ts';

/** An unfinished upload of a new item in `ownerId`'s tree (under `parentId` when given). */
async function started(
  f: FilesFixture,
  ownerId: string,
  overrides: Partial<UploadRecord> = {},
  parentId: string | null = null,
): Promise<UploadRecord> {
  const [item] = await inserted(f, newItem(ownerId, { parentId, state: 'uploading', size: overrides.size ?? 1000 }));
  const upload: UploadRecord = {
    id: crypto.randomUUID(),
    itemId: item!.id,
    userId: ownerId,
    linkId: null,
    anonymous: false,
    size: 1000,
    parts: 1,
    reservedRemaining: 1000,
    createdAt: NOW,
    lastActivityAt: NOW,
    expiresAt: NOW + 1000,
    ...overrides,
  };
  await f.store.transaction((tx) => tx.insertUpload(upload));
  return upload;
}

/** The uploads port (ports/files/uploads.ts) over one adapter. */
export function uploadsContract(name: string, makeDb: MakeDb): void {
  describe(`uploads port: ${name}`, () => {
    const f = filesFixture(makeDb);
    const ids = (uploads: UploadRecord[]) => uploads.map((upload) => upload.id).sort();

    test('an upload comes back as inserted (anonymous true, false or unknown); lockUpload reads it too', async () => {
      const owner = await newUser(f);
      for (const anonymous of [true, false, null]) {
        const upload = await started(f, owner, { anonymous, size: 5 * 2 ** 32, reservedRemaining: 2 ** 33 });
        expect(await f.store.upload(upload.id)).toEqual(upload);
        expect(await f.store.transaction((tx) => tx.lockUpload(upload.id))).toEqual(upload);
      }
      expect(await f.store.upload(crypto.randomUUID())).toBeUndefined();
    });

    test('updateUpload changes only what it is given; deleteUploads returns what it deleted', async () => {
      const owner = await newUser(f);
      const upload = await started(f, owner);
      await f.store.transaction(async (tx) => {
        await tx.updateUpload(upload.id, {});
        await tx.updateUpload(upload.id, { reservedRemaining: 10 });
      });
      expect(await f.store.upload(upload.id)).toEqual({ ...upload, reservedRemaining: 10 });
      await f.store.transaction((tx) => tx.updateUpload(upload.id, { lastActivityAt: NOW + 1, expiresAt: NOW + 2 }));
      const changed = { ...upload, reservedRemaining: 10, lastActivityAt: NOW + 1, expiresAt: NOW + 2 };
      expect(await f.store.upload(upload.id)).toEqual(changed);
      expect(await f.store.transaction((tx) => tx.deleteUploads([upload.itemId, crypto.randomUUID()]))).toEqual([changed]);
      expect(await f.store.upload(upload.id)).toBeUndefined();
    });

    test('unfinished bytes, and the uploads through a link or by a signed-in user in an owner tree', async () => {
      const owner = await newUser(f);
      const editor = await newUser(f);
      const [link] = await inserted(f, newFolder(owner));
      const linkId = crypto.randomUUID().replaceAll('-', '').slice(0, 22);
      await f.store.transaction((tx) =>
        tx.insertLink({
          id: linkId,
          itemId: link!.id,
          edit: true,
          passwordHash: null,
          passwordEpoch: 0,
          expiresAt: null,
          endedAt: null,
          createdAt: NOW,
          modifiedAt: NOW,
        }),
      );
      const anonymous = await started(f, owner, { linkId, anonymous: true, size: 100 }, link!.id);
      const viaLink = await started(f, owner, { userId: editor, linkId, size: 20 }, link!.id);
      const direct = await started(f, owner, { userId: editor, size: 3 });
      const own = await started(f, owner, { size: 4000 });
      expect(await f.store.unfinishedBytes({ linkId })).toBe(120);
      expect(await f.store.unfinishedBytes({ uploaderId: editor, ownerId: owner })).toBe(23);
      expect(await f.store.unfinishedBytes({ uploaderId: editor, ownerId: editor })).toBe(0);
      // The owner's own, not the anonymous holder's (whose row names the owner).
      expect(await f.store.unfinishedBytes({ uploaderId: owner, ownerId: owner })).toBe(own.size);
      expect(ids(await f.store.uploadsVia(linkId))).toEqual(ids([anonymous, viaLink]));
      expect(await f.store.uploadsBy(editor, owner)).toEqual([direct]);
      expect(await f.store.unfinishedCount(owner)).toBe(4);
    });

    test('unfinishedIn: newest first (then by id) with their items, one page', async () => {
      const owner = await newUser(f);
      const [older, newer, tieA, tieB] = [
        await started(f, owner, { createdAt: NOW }),
        await started(f, owner, { createdAt: NOW + 2 }),
        await started(f, owner, { createdAt: NOW + 1 }),
        await started(f, owner, { createdAt: NOW + 1 }),
      ];
      const ties = [tieA!, tieB!].sort((a, b) => (a.id < b.id ? -1 : 1));
      const page = await f.store.unfinishedIn(owner, { limit: 3, offset: 0 });
      expect(page.map((entry) => entry.upload)).toEqual([newer!, ...ties]);
      expect(page.map((entry) => entry.item.id)).toEqual([newer!, ...ties].map((upload) => upload.itemId));
      expect((await f.store.unfinishedIn(owner, { limit: 3, offset: 3 })).map((entry) => entry.upload)).toEqual([older!]);
    });

    test('expiredUploads: at or before now, soonest first, at most the limit', async () => {
      const owner = await newUser(f);
      const at = NOW + 10 ** 9;
      const late = await started(f, owner, { expiresAt: at });
      const early = await started(f, owner, { expiresAt: at - 5 });
      await started(f, owner, { expiresAt: at + 1 });
      const expired = (await f.store.expiredUploads(at, 1000)).filter((u) => u.expiresAt > NOW + 1000);
      expect(expired).toEqual([early, late]);
      expect((await f.store.expiredUploads(at, 1)).length).toBe(1);
    });
  });
}
