/**
 * Promise wrappers over IndexedDB for the worker's small stores (account keys, upload records),
 * so each store keeps only its schema and records.
 */

/** Opens `name` (at `version`, or the current one when undefined), running `upgrade` when asked. */
export function openDatabase(
  name: string,
  version: number | undefined,
  upgrade: (db: IDBDatabase) => void,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    req.onupgradeneeded = () => upgrade(req.result);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB could not be opened'));
  });
}

/**
 * One connection shared by every caller. When another context deletes or upgrades the database,
 * the connection closes to let it, and the next caller opens a new one; a failed open is retried too.
 */
export function sharedConnection(open: () => Promise<IDBDatabase>): () => Promise<IDBDatabase> {
  let opening: Promise<IDBDatabase> | undefined;
  return () => {
    opening ??= open().then(
      (db) => {
        db.onversionchange = () => {
          db.close();
          opening = undefined;
        };
        return db;
      },
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  };
}

/** Runs `run` on one store in a transaction and resolves with its value once the transaction commits. */
export async function inTransaction<T>(
  db: IDBDatabase,
  storeName: string,
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => T,
): Promise<T> {
  const tx = db.transaction(storeName, mode);
  const value = run(tx.objectStore(storeName));
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  return value;
}

/** One request in its own transaction; its result, once committed (a failed request aborts the transaction). */
export async function requestInTransaction<T>(
  db: IDBDatabase,
  storeName: string,
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const req = await inTransaction(db, storeName, mode, run);
  return req.result;
}
