/**
 * The sealed search index in IndexedDB (docs/protocol.md "Tree version and search index"): one
 * database per user, `sealbox-search-{userId}`, store `index`; per section a meta record
 * (`[section, "meta"]`), its chunks (`[section, n]`) and its names record (`[section, "names"]`,
 * seal.ts). A section is written whole in one transaction, so a reader never sees half a build.
 */
import { inTransaction, openDatabase } from '../../lib/idb.ts';
import type { IndexMeta, IndexSection, SealedChunk } from './seal.ts';

const STORE = 'index';
export const indexDbName = (userId: string) => `sealbox-search-${userId}`;

async function open(userId: string): Promise<IDBDatabase> {
  return openDatabase(indexDbName(userId), 1, (db) => {
    if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
  });
}

/** A section's chunks, in order (numbers sort before the string "meta" in a key). */
const chunkRange = (section: IndexSection) => IDBKeyRange.bound([section, 0], [section, Number.MAX_SAFE_INTEGER]);

/** The section's meta and, in the same transaction, `what`; undefined when the section has no meta. */
async function readWithMeta<T>(
  userId: string,
  section: IndexSection,
  what: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<{ meta: IndexMeta; value: T } | undefined> {
  const db = await open(userId);
  try {
    const requests = await inTransaction(db, STORE, 'readonly', (store) => ({
      meta: store.get([section, 'meta']) as IDBRequest<IndexMeta | undefined>,
      value: what(store),
    }));
    const meta = requests.meta.result;
    return meta ? { meta, value: requests.value.result } : undefined;
  } finally {
    db.close();
  }
}

export async function readIndex(
  userId: string,
  section: IndexSection,
): Promise<{ meta: IndexMeta; chunks: SealedChunk[] } | undefined> {
  const read = await readWithMeta(userId, section, (store) => store.getAll(chunkRange(section)) as IDBRequest<SealedChunk[]>);
  return read && { meta: read.meta, chunks: read.value };
}

/** The section's meta and names record alone (a first search reads them before the chunks). */
export async function readNames(
  userId: string,
  section: IndexSection,
): Promise<{ meta: IndexMeta; names: SealedChunk | undefined } | undefined> {
  const read = await readWithMeta(
    userId,
    section,
    (store) => store.get([section, 'names']) as IDBRequest<SealedChunk | undefined>,
  );
  return read && { meta: read.meta, names: read.value };
}

/** The section whole: its meta, chunks and names record (none when the build cannot have one). */
export async function writeIndex(
  userId: string,
  section: IndexSection,
  meta: IndexMeta,
  chunks: readonly SealedChunk[],
  names: SealedChunk | undefined,
): Promise<void> {
  const db = await open(userId);
  try {
    await inTransaction(db, STORE, 'readwrite', (store) => {
      store.delete(chunkRange(section));
      for (const [n, chunk] of chunks.entries()) store.put(chunk, [section, n]);
      // Never a names record of an older build beside these chunks.
      if (names) store.put(names, [section, 'names']);
      else store.delete([section, 'names']);
      store.put(meta, [section, 'meta']);
    });
  } finally {
    db.close();
  }
}

/** Deletes the user's index database (logout); resolves even when another tab holds it open (it is deleted once they close). */
export function deleteIndex(userId: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(indexDbName(userId));
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
    request.onblocked = () => resolve();
  });
}
