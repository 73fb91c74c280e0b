import { describe, expect, test } from 'bun:test';
import type { LinkRecord } from '../../../src/ports/files.ts';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, inserted, newFolder, newUser, NOW, type FilesFixture } from './fixture.ts';

/** A link to `itemId`, inserted. */
async function linked(f: FilesFixture, itemId: string, overrides: Partial<LinkRecord> = {}): Promise<LinkRecord> {
  const link: LinkRecord = {
    id: crypto.randomUUID().replaceAll('-', '').slice(0, 22),
    itemId,
    edit: false,
    passwordHash: null,
    passwordEpoch: 0,
    expiresAt: null,
    createdAt: NOW,
    modifiedAt: NOW,
    endedAt: null,
    ...overrides,
  };
  await f.store.transaction((tx) => tx.insertLink(link));
  return link;
}

/** The links port (ports/files/links.ts) over one adapter. */
export function linksContract(name: string, makeDb: MakeDb): void {
  describe(`links port: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('a link comes back as inserted; linksOn lists them oldest first (then by id)', async () => {
      const owner = await newUser(f);
      const [a, b] = await inserted(f, newFolder(owner), newFolder(owner));
      const late = await linked(f, a!.id, { edit: true, passwordHash: '$argon2id$x', passwordEpoch: 3, createdAt: NOW + 1 });
      const tied = [await linked(f, a!.id, { expiresAt: NOW + 2 ** 33 }), await linked(f, b!.id)].sort((x, y) =>
        x.id < y.id ? -1 : 1,
      );
      expect(await f.store.link(late.id)).toEqual(late);
      expect(await f.store.link('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
      expect(await f.store.linksOn([a!.id, b!.id, a!.id])).toEqual([...tied, late]);
    });

    test('updateLink changes only what it is given; deleteLink says whether there was one', async () => {
      const owner = await newUser(f);
      const [item] = await inserted(f, newFolder(owner));
      const link = await linked(f, item!.id, { passwordHash: 'old' });
      await f.store.transaction((tx) => tx.updateLink(link.id, {}));
      await f.store.transaction((tx) => tx.updateLink(link.id, { edit: true, modifiedAt: NOW + 1 }));
      expect(await f.store.link(link.id)).toEqual({ ...link, edit: true, modifiedAt: NOW + 1 });
      await f.store.transaction((tx) => tx.updateLink(link.id, { passwordHash: null, passwordEpoch: 1 }));
      expect(await f.store.link(link.id)).toEqual({
        ...link,
        edit: true,
        modifiedAt: NOW + 1,
        passwordHash: null,
        passwordEpoch: 1,
      });
      await f.store.transaction((tx) => tx.updateLink(link.id, { expiresAt: NOW + 9, endedAt: NOW + 10 }));
      expect((await f.store.link(link.id))!).toMatchObject({ expiresAt: NOW + 9, endedAt: NOW + 10, passwordEpoch: 1 });
      await f.store.transaction((tx) => tx.updateLink(link.id, { expiresAt: null, endedAt: null }));
      expect((await f.store.link(link.id))!).toMatchObject({ expiresAt: null, endedAt: null, edit: true });
      expect(await f.store.transaction((tx) => tx.deleteLink(link.id))).toBe(true);
      expect(await f.store.transaction((tx) => tx.deleteLink(link.id))).toBe(false);
      expect(await f.store.link(link.id)).toBeUndefined();
    });

    test('linksToEnd: expired at or before now and not ended, soonest first; linksToRemove: ended or not', async () => {
      const owner = await newUser(f);
      const [item] = await inserted(f, newFolder(owner));
      const at = NOW + 10 ** 9;
      const late = await linked(f, item!.id, { expiresAt: at });
      const early = await linked(f, item!.id, { expiresAt: at - 5 });
      const ended = await linked(f, item!.id, { expiresAt: at - 9, endedAt: at - 8 });
      await linked(f, item!.id, { expiresAt: at + 1 });
      await linked(f, item!.id);
      expect(await f.store.linksToEnd(at, 10)).toEqual([early, late]);
      expect(await f.store.linksToEnd(at, 1)).toEqual([early]);
      expect(await f.store.linksToRemove(at, 10)).toEqual([ended, early, late]);
      expect(await f.store.linksToRemove(at - 6, 10)).toEqual([ended]);
    });
  });
}
