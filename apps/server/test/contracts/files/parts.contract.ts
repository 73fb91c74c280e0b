import { describe, expect, test } from 'bun:test';
import type { MakeDb } from '../db.contract.ts';
import { filesFixture, inserted, newItem, newPart, newUser } from './fixture.ts';

/** The parts port (ports/files/parts.ts) over one adapter. */
export function partsContract(name: string, makeDb: MakeDb): void {
  describe(`parts port: ${name}`, () => {
    const f = filesFixture(makeDb);

    test('parts in order of their number; putting part n again replaces it and returns the old one', async () => {
      const owner = await newUser(f);
      const [file] = await inserted(f, newItem(owner, { state: 'uploading' }));
      const [p0, p1, p2, again] = [
        newPart(file!.id, 0),
        newPart(file!.id, 1, 5 * 2 ** 32),
        newPart(file!.id, 2, 7),
        newPart(file!.id, 1, 9),
      ];
      const replaced = await f.store.transaction(async (tx) => {
        for (const p of [p2, p0, p1]) expect(await tx.putPart(p!)).toBeUndefined();
        return tx.putPart(again!);
      });
      expect(replaced).toEqual(p1);
      expect(await f.store.parts(file!.id)).toEqual([p0!, again!, p2!]);
      expect(await f.store.parts(crypto.randomUUID())).toEqual([]);
    });

    test('deleteParts returns what it deleted; namedBlobKeys tells which keys a part names', async () => {
      const owner = await newUser(f);
      const [a, b] = await inserted(f, newItem(owner), newItem(owner));
      const parts = [newPart(a!.id, 0), newPart(a!.id, 1), newPart(b!.id, 0)];
      await f.store.transaction(async (tx) => {
        for (const p of parts) await tx.putPart(p);
      });
      const unknown = `p-${crypto.randomUUID()}`;
      expect(await f.store.namedBlobKeys([...parts.map((p) => p.blobKey), unknown])).toEqual(
        new Set(parts.map((p) => p.blobKey)),
      );
      const deleted = await f.store.transaction((tx) => tx.deleteParts([a!.id]));
      expect(deleted.sort((x, y) => x.n - y.n)).toEqual(parts.slice(0, 2));
      expect(await f.store.parts(a!.id)).toEqual([]);
      expect(await f.store.namedBlobKeys(parts.map((p) => p.blobKey))).toEqual(new Set([parts[2]!.blobKey]));
    });
  });
}
