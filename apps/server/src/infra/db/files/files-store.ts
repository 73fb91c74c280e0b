import type { Kysely, Transaction } from 'kysely';
import { DomainError } from '../../../domain/errors.ts';
import type { Database, Db, DbTransaction, SqlDialect } from '../../../ports/db.ts';
import type { FilesReader, FilesStore, FilesTransaction } from '../../../ports/files.ts';
import { rememberAncestors } from './ancestor-cache.ts';
import { accountDeletionReader, accountDeletionSweep, accountDeletionWriter } from './account-deletion-store.ts';
import { blocksReader, blocksWriter } from './blocks-store.ts';
import { itemsReader, itemsSweep, itemsWriter } from './items-store.ts';
import { linksReader, linksSweep, linksWriter } from './links-store.ts';
import { partsReader, partsSweep, partsWriter } from './parts-store.ts';
import { peopleReader } from './people-store.ts';
import { treeChanges, treeVersionReader } from './tree-version-store.ts';
import { sharingReader, sharingWriter } from './sharing-store.ts';
import { uploadsReader, uploadsSweep, uploadsWriter } from './uploads-store.ts';
import { versionsReader, versionsSweep, versionsWriter } from './versions-store.ts';

/**
 * The files domain's storage over either dialect: the store of each table (beside this file)
 * put together, as ports/files.ts puts their ports together. quota-store.ts works inside the
 * transactions opened here.
 */
export function createFilesStore(db: Db): FilesStore {
  const k = db.kysely;
  return {
    ...filesReader(k),
    ...itemsSweep(k),
    ...partsSweep(k),
    ...uploadsSweep(k),
    ...linksSweep(k),
    ...accountDeletionSweep(k),
    ...versionsSweep(k),
    transaction(fn) {
      return db.transaction((tx) => fn(transactionOf(tx, db.dialect)));
    },
  };
}

function filesReader(k: Kysely<Database>): FilesReader {
  return {
    ...itemsReader(k),
    ...partsReader(k),
    ...uploadsReader(k),
    ...sharingReader(k),
    ...blocksReader(k),
    ...linksReader(k),
    ...peopleReader(k),
    ...accountDeletionReader(k),
    ...versionsReader(k),
    ...treeVersionReader(k),
  };
}

/** The database transaction behind each files transaction opened here. */
const opened = new WeakMap<FilesTransaction, Transaction<Database>>();

function transactionOf(tx: DbTransaction, dialect: SqlDialect): FilesTransaction {
  const k = tx.kysely;
  const reader = filesReader(k);
  // Through `files.publish`, not tx.publish: a batch call swaps it to gather its events (event-batch.ts).
  const tree = treeChanges(k, (event) => files.publish(event));
  const writes = {
    ...itemsWriter(k, tree),
    ...partsWriter(k),
    ...uploadsWriter(k, dialect),
    ...sharingWriter(k),
    ...blocksWriter(k),
    ...linksWriter(k),
    ...accountDeletionWriter(k),
    ...versionsWriter(k),
    async lockOwner(userId: string, options: { evenDeleted?: boolean } = {}) {
      let query = k.selectFrom('users').select(['id', 'deleted_at']).where('id', '=', userId);
      if (dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (row?.deleted_at != null && !options.evenDeleted) throw new DomainError('NOT_FOUND', 'This account was deleted');
    },
  };
  const files: FilesTransaction = {
    ...reader,
    ...rememberAncestors(reader, writes),
    publish: tx.publish,
    afterCommit: tx.afterCommit,
  };
  opened.set(files, k);
  return files;
}

/** The database transaction of a files transaction, for the quota store to work in. */
export function databaseTransactionOf(tx: FilesTransaction): Transaction<Database> {
  const k = opened.get(tx);
  if (!k) throw new Error('Not a transaction opened by the files store');
  return k;
}
