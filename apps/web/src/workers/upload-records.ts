/**
 * Unfinished uploads, kept in IndexedDB (database 'sealbox-transfers', store 'uploads') so an
 * upload can resume after a reload (docs/protocol.md "Part protocol"). A record holds the item
 * key K in raw form: acceptable only while the upload is unfinished, so it is deleted on
 * completion, on abort, and when it is older than the server's 24-hour upload expiry.
 * Only the crypto worker opens this database.
 */
import { inTransaction, openDatabase, requestInTransaction, sharedConnection } from '../lib/idb.ts';
import { type BrowseScope, OWN_SCOPE, checkedScope, linkScope } from '../model/browse-scope.ts';

export const TRANSFER_DB_NAME = 'sealbox-transfers';
export const UPLOAD_STORE = 'uploads';
/** The server expires an upload untouched for 24 hours; a record older than that is useless. */
export const RECORD_TTL_MS = 24 * 60 * 60 * 1000;

export interface UploadRecord {
  uploadId: string;
  /** Item id. */
  id: string;
  parentId: string | null;
  /** Raw item key (32 bytes). Deleted with the record. */
  key: Uint8Array;
  fileNonce: Uint8Array;
  name: string;
  type: string;
  /** Plaintext size and File.lastModified of the picked file. */
  size: number;
  lastModified: number;
  cipherSize: number;
  /**
   * Each part's fingerprint (transfers/parts.ts: SHA-256 of its chunks' tags), written before that
   * part is sent. The field keeps its first name: records already stored in browsers use it.
   */
  partHashes: Record<number, string>;
  /** Whose upload this is (the server only shows an upload to its uploader). */
  userId: string | null;
  /** Where it was started: its calls are made in that scope (recordScope). */
  scope?: BrowseScope;
  /** The share link it was started through (only that link's holders may continue it); kept for older builds, which read only this. */
  linkId?: string;
  createdAt: number;
  updatedAt: number;
}

/** The scope a record's calls are made in; a record an older build wrote names only its link. */
export function recordScope(record: Pick<UploadRecord, 'scope' | 'linkId'>): BrowseScope {
  if (record.scope) return checkedScope(record.scope);
  return record.linkId ? linkScope(record.linkId) : OWN_SCOPE;
}

const openDb = sharedConnection(() =>
  openDatabase(TRANSFER_DB_NAME, 1, (db) => {
    if (!db.objectStoreNames.contains(UPLOAD_STORE)) db.createObjectStore(UPLOAD_STORE, { keyPath: 'uploadId' });
  }),
);

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return requestInTransaction(await openDb(), UPLOAD_STORE, mode, run);
}

export async function putRecord(record: UploadRecord): Promise<void> {
  await withStore('readwrite', (store) => store.put({ ...record, updatedAt: Date.now() }));
}

export async function getRecord(uploadId: string): Promise<UploadRecord | undefined> {
  return (await withStore('readonly', (store) => store.get(uploadId) as IDBRequest<UploadRecord | undefined>)) ?? undefined;
}

/** Records of `userId` (all when null), newest first; expired ones are deleted on the way. */
export async function listRecords(userId: string | null): Promise<UploadRecord[]> {
  const all = await withStore('readonly', (store) => store.getAll() as IDBRequest<UploadRecord[]>);
  const now = Date.now();
  const live: UploadRecord[] = [];
  for (const record of all) {
    if (now - record.updatedAt > RECORD_TTL_MS) await deleteRecord(record.uploadId);
    else if (userId === null || record.userId === null || record.userId === userId) live.push(record);
  }
  return live.sort((a, b) => b.createdAt - a.createdAt);
}

export async function deleteRecord(uploadId: string): Promise<void> {
  await withStore('readwrite', (store) => store.delete(uploadId));
}

/** Logout: unfinished uploads hold raw item keys, so they go with the account keys. */
export async function clearRecords(): Promise<void> {
  await withStore('readwrite', (store) => store.clear());
}

/** Records one part's fingerprint (read-modify-write in one transaction). */
export async function recordPartFingerprint(uploadId: string, part: number, fingerprint: string): Promise<void> {
  await inTransaction(await openDb(), UPLOAD_STORE, 'readwrite', (store) => {
    const get = store.get(uploadId) as IDBRequest<UploadRecord | undefined>;
    get.onsuccess = () => {
      const record = get.result;
      if (!record) return;
      record.partHashes = { ...record.partHashes, [part]: fingerprint };
      record.updatedAt = Date.now();
      store.put(record);
    };
  });
}
