/**
 * The sealed search index in IndexedDB (docs/protocol.md "Tree version and search index"): one
 * database per user, `sealbox-search-{userId}`, store `index` with a `meta` record and the chunks
 * by number. Written whole in one transaction, so a reader never sees half a build.
 */
import { inTransaction, openDatabase } from '../../lib/idb.ts';
import type { IndexMeta, SealedChunk } from './seal.ts';

const STORE = 'index';
export const indexDbName = (userId: string) => `sealbox-search-${userId}`;

async function open(userId: string): Promise<IDBDatabase> {
  return openDatabase(indexDbName(userId), 1, (db) => {
    if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
  });
}

export async function readIndex(userId: string): Promise<{ meta: IndexMeta; chunks: SealedChunk[] } | undefined> {
  const db = await open(userId);
  try {
    const requests = await inTransaction(db, STORE, 'readonly', (store) => ({
      meta: store.get('meta') as IDBRequest<IndexMeta | undefined>,
      chunks: store.getAll(IDBKeyRange.bound(0, Number.MAX_SAFE_INTEGER)) as IDBRequest<SealedChunk[]>,
    }));
    const meta = requests.meta.result;
    return meta ? { meta, chunks: requests.chunks.result } : undefined;
  } finally {
    db.close();
  }
}

export async function writeIndex(userId: string, meta: IndexMeta, chunks: readonly SealedChunk[]): Promise<void> {
  const db = await open(userId);
  try {
    await inTransaction(db, STORE, 'readwrite', (store) => {
      store.clear();
      for (const [n, chunk] of chunks.entries()) store.put(chunk, n);
      store.put(meta, 'meta');
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
