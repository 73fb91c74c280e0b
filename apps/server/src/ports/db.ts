import type { Kysely, Transaction } from 'kysely';
import type { Database } from './db-schema.ts';
import type { SealboxEvent } from './event-bus.ts';

export type { Database } from './db-schema.ts';
export type SqlDialect = 'sqlite' | 'postgres';

export interface DbTransaction {
  kysely: Transaction<Database>;
  /** Queued until the transaction commits; dropped if it rolls back. */
  publish(event: SealboxEvent): void;
  /** Runs after commit, in the order queued together with publish(); never on rollback. */
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * Metadata store. Queries go through Kysely; driver errors are normalised on both dialects:
 * unique violation -> DomainError CONFLICT, foreign-key violation -> REFERENCE_MISSING.
 */
export interface Db {
  kysely: Kysely<Database>;
  dialect: SqlDialect;
  /** Not re-entrant: do not call db.transaction from inside fn, use tx.kysely. */
  transaction<T>(fn: (tx: DbTransaction) => Promise<T>): Promise<T>;
  health(): Promise<void>;
  close(): Promise<void>;
}
