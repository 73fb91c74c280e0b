/**
 * The unlocked account keys, kept across reloads in IndexedDB (DESIGN.md 4: never
 * localStorage). Every secret is a non-extractable CryptoKey, which IndexedDB stores by
 * structured clone without its bytes ever becoming readable to script. Only the crypto
 * worker opens this database; logout deletes the records.
 */
import type { AccountKeys } from '@sealbox/crypto';

export const KEY_DB_NAME = 'sealbox-keys';
export const KEY_STORE_NAME = 'account';

export interface StoredAccount {
  userId: string;
  keys: AccountKeys;
  storedAt: number;
}

let opening: Promise<IDBDatabase> | undefined;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function openDb(): Promise<IDBDatabase> {
  opening ??= openVersion(undefined);
  return opening;
}

function openVersion(version: number | undefined): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const req = version === undefined ? indexedDB.open(KEY_DB_NAME) : indexedDB.open(KEY_DB_NAME, version);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(KEY_STORE_NAME)) db.createObjectStore(KEY_STORE_NAME, { keyPath: 'userId' });
    };
    req.onsuccess = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(KEY_STORE_NAME)) {
        // Made by someone else without our store (e.g. a bare open): upgrade it to add the store.
        const next = db.version + 1;
        db.close();
        openVersion(next).then(resolve, reject);
        return;
      }
      // Another context deleting or upgrading the database: let it, and reopen next time.
      db.onversionchange = () => {
        db.close();
        opening = undefined;
      };
      resolve(db);
    };
    req.onerror = () => {
      opening = undefined;
      reject(req.error ?? new Error('IndexedDB could not be opened'));
    };
  });
}

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  const tx = db.transaction(KEY_STORE_NAME, mode);
  const result = request(run(tx.objectStore(KEY_STORE_NAME)));
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  return result;
}

/** Keeps only this account: a browser holds the keys of the one user signed in. */
export async function saveAccount(userId: string, keys: AccountKeys): Promise<void> {
  const record: StoredAccount = { userId, keys, storedAt: Date.now() };
  const db = await openDb();
  const tx = db.transaction(KEY_STORE_NAME, 'readwrite');
  const store = tx.objectStore(KEY_STORE_NAME);
  store.clear();
  store.put(record);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export async function loadAccount(userId: string): Promise<StoredAccount | undefined> {
  const found = await withStore('readonly', (store) => store.get(userId) as IDBRequest<StoredAccount | undefined>);
  return isStoredAccount(found) ? found : undefined;
}

/** The one stored account, whoever it is (for callers that do not know the user id). */
export async function loadAnyAccount(): Promise<StoredAccount | undefined> {
  const all = await withStore('readonly', (store) => store.getAll() as IDBRequest<StoredAccount[]>);
  return all.find(isStoredAccount);
}

export async function clearAccounts(): Promise<void> {
  await withStore('readwrite', (store) => store.clear());
}

function isStoredAccount(value: unknown): value is StoredAccount {
  const v = value as Partial<StoredAccount> | undefined;
  const k = v?.keys;
  return (
    typeof v?.userId === 'string' &&
    !!k &&
    k.encryptionPrivateKey instanceof CryptoKey &&
    k.signingPrivateKey instanceof CryptoKey &&
    k.rootKey instanceof CryptoKey &&
    typeof k.publicKey === 'string' &&
    typeof k.signingPublicKey === 'string'
  );
}
