/**
 * The sealed search index in IndexedDB (docs/protocol.md "Tree version and search index"): one
 * database per user, `sealbox-search-{userId}`, store `index`; per section a meta record
 * (`[section, "meta"]`) and its chunks (`[section, n]`). A section is written whole in one
 * transaction, so a reader never sees half a build.
 */
import { inTransaction, openDatabase, requestInTransaction } from '../../lib/idb.ts';
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

/** Past this many chunks (25 million names) a stored meta record is not believed: built again. */
const MAX_CHUNKS = 5000;

/**
 * A section's meta record, and its chunks as IndexedDB hands them over, one by one (`chunks[n]`
 * resolves with chunk n, undefined when it is not there): the first can be opened while the
 * others are still being read. Undefined when there is no section, or its meta is not one a
 * build writes.
 */
export async function readIndex(
  userId: string,
  section: IndexSection,
): Promise<{ meta: IndexMeta; chunks: Array<Promise<SealedChunk | undefined>> } | undefined> {
  const db = await open(userId);
  let handedOver = false;
  try {
    const meta = await requestInTransaction(
      db,
      STORE,
      'readonly',
      (store) => store.get([section, 'meta']) as IDBRequest<IndexMeta | undefined>,
    );
    if (!meta || !Number.isSafeInteger(meta.chunks) || meta.chunks < 1 || meta.chunks > MAX_CHUNKS) return undefined;
    // Every request made now, in one transaction (it would commit if this waited between them).
    const tx = db.transaction(STORE, 'readonly');
    const store = tx.objectStore(STORE);
    const chunks = Array.from(
      { length: meta.chunks },
      (_, n) =>
        new Promise<SealedChunk | undefined>((resolve) => {
          const request = store.get([section, n]) as IDBRequest<SealedChunk | undefined>;
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => resolve(undefined);
        }),
    );
    tx.oncomplete = tx.onabort = tx.onerror = () => db.close();
    handedOver = true;
    return { meta, chunks };
  } finally {
    if (!handedOver) db.close();
  }
}

export async function writeIndex(
  userId: string,
  section: IndexSection,
  meta: IndexMeta,
  chunks: readonly SealedChunk[],
): Promise<void> {
  const db = await open(userId);
  try {
    await inTransaction(db, STORE, 'readwrite', (store) => {
      store.delete(chunkRange(section));
      for (const [n, chunk] of chunks.entries()) store.put(chunk, [section, n]);
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
