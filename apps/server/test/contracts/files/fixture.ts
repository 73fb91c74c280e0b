import { afterAll, beforeAll } from 'bun:test';
import { createFilesStore } from '../../../src/infra/db/files/files-store.ts';
import { createQuotaStore } from '../../../src/infra/db/files/quota-store.ts';
import { createMemoryEventBus } from '../../../src/infra/events/memory-event-bus.ts';
import { silentLogger } from '../../../src/infra/log/json-logger.ts';
import type { Db } from '../../../src/ports/db.ts';
import type { EventBus, SealboxEvent } from '../../../src/ports/event-bus.ts';
import type { FilesStore, NewItem } from '../../../src/ports/files.ts';
import type { QuotaStore } from '../../../src/ports/files/quota.ts';
import { userRow, type MakeDb } from '../db.contract.ts';

export { caught } from '../db.contract.ts';

/**
 * One database per port's contract suite (opened before its tests, dropped after), with the
 * files and quota stores over it. Tests make their own users and items, so they share it.
 */
export interface FilesFixture {
  db: Db;
  store: FilesStore;
  quota: QuotaStore;
  /** Events delivered after commits, in order. */
  delivered: SealboxEvent[];
}

export const NOW = 1_700_000_000_000;

export function filesFixture(makeDb: MakeDb): FilesFixture {
  const f = { delivered: [] } as unknown as FilesFixture;
  let events: EventBus;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    events = createMemoryEventBus(silentLogger);
    events.subscribe((event) => f.delivered.push(event));
    const opened = await makeDb(events);
    cleanup = opened.cleanup;
    Object.assign(f, { db: opened.db, store: createFilesStore(opened.db), quota: createQuotaStore(opened.db) });
  }, 60_000);
  afterAll(async () => {
    await cleanup?.();
    await events?.close();
  });
  return f;
}

/** A new account (10 GiB, nothing used); its id. */
export async function newUser(f: FilesFixture, totalSpace = 10 * 1024 ** 3): Promise<string> {
  const row = userRow({ total_space: totalSpace });
  await f.db.kysely.insertInto('users').values(row).execute();
  return row.id;
}

/** A ready file of 100 bytes at the top of `ownerId`'s tree unless told otherwise. */
export function newItem(ownerId: string, overrides: Partial<NewItem> = {}): NewItem {
  return {
    id: crypto.randomUUID(),
    parentId: null,
    ownerId,
    uploaderId: ownerId,
    isDirectory: false,
    encryptedFileName: 'bmFtZQ==',
    nameNonce: 'AAAAAAAAAAAAAAAA',
    encryptedMimeType: null,
    mimeTypeNonce: null,
    encryptedKey: 'a2V5',
    keyNonce: null,
    fileNonce: null,
    size: 100,
    state: 'ready',
    createdAt: NOW,
    modifiedAt: NOW,
    ...overrides,
  };
}

/** A folder, as newItem makes files. */
export const newFolder = (ownerId: string, overrides: Partial<NewItem> = {}) =>
  newItem(ownerId, { isDirectory: true, size: 0, ...overrides });

/** Part n of an item, under a blob key of its own (made at NOW + n). */
export const newPart = (itemId: string, n: number, size = 1000) => ({
  itemId,
  n,
  size,
  blobKey: `p-${crypto.randomUUID()}`,
  createdAt: NOW + n,
});

/** Inserts these items in one transaction, in order (parents first); returns them. */
export async function inserted(f: FilesFixture, ...items: NewItem[]): Promise<NewItem[]> {
  await f.store.transaction(async (tx) => {
    for (const item of items) await tx.insertItem(item);
  });
  return items;
}
