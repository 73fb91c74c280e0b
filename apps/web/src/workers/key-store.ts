/**
 * The unlocked account keys, kept across reloads in IndexedDB (docs/protocol.md: never
 * localStorage). Every secret is a non-extractable CryptoKey, which IndexedDB stores by
 * structured clone without its bytes ever becoming readable to script. Only the crypto
 * worker opens this database; logout deletes the records.
 */
import type { AccountKeys } from '@sealbox/crypto';
import { inTransaction, openDatabase, requestInTransaction, sharedConnection } from '../lib/idb.ts';

export const KEY_DB_NAME = 'sealbox-keys';
export const KEY_STORE_NAME = 'account';

export interface StoredAccount {
  userId: string;
  keys: AccountKeys;
  storedAt: number;
}

/** The current version of the keys database, upgraded when it lacks our store. */
async function openKeyDb(version?: number): Promise<IDBDatabase> {
  const db = await openDatabase(KEY_DB_NAME, version, (upgrading) => {
    if (!upgrading.objectStoreNames.contains(KEY_STORE_NAME)) upgrading.createObjectStore(KEY_STORE_NAME, { keyPath: 'userId' });
  });
  if (db.objectStoreNames.contains(KEY_STORE_NAME)) return db;
  // Made by someone else without our store (e.g. a bare open): upgrade it to add the store.
  const next = db.version + 1;
  db.close();
  return openKeyDb(next);
}

const openDb = sharedConnection(() => openKeyDb());

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return requestInTransaction(await openDb(), KEY_STORE_NAME, mode, run);
}

/** Keeps only this account: a browser holds the keys of the one user signed in. */
export async function saveAccount(userId: string, keys: AccountKeys): Promise<void> {
  const record: StoredAccount = { userId, keys, storedAt: Date.now() };
  await inTransaction(await openDb(), KEY_STORE_NAME, 'readwrite', (store) => {
    store.clear();
    store.put(record);
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
