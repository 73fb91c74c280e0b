import type { DatabaseConnection, Dialect, Driver, QueryCompiler, TransactionSettings } from 'kysely';
import type { AbortableOperationOptions } from 'kysely';
import { normaliseDbError } from './normalise-db-error.ts';

const PATCHED = Symbol('sealbox.errorsNormalised');

/**
 * Wraps a dialect so every query, inside a transaction or not, fails with normalised errors.
 * The connection object is patched in place rather than wrapped because drivers keep private
 * state on it (kysely-postgres-js releases connections through a symbol on the instance).
 */
export function withNormalisedErrors(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new NormalisingDriver(dialect.createDriver()),
  };
}

class NormalisingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(options?: AbortableOperationOptions) {
    return this.inner.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    // A database that cannot be reached fails here (or at BEGIN/COMMIT), not in a query.
    const connection = await normalised(() => this.inner.acquireConnection(options));
    patch(connection);
    return connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return normalised(() => this.inner.beginTransaction(connection, settings));
  }

  commitTransaction(connection: DatabaseConnection) {
    return normalised(() => this.inner.commitTransaction(connection));
  }

  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.savepoint) throw new Error('This database driver has no savepoints');
    await this.inner.savepoint(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.rollbackToSavepoint) throw new Error('This database driver has no savepoints');
    await this.inner.rollbackToSavepoint(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.releaseSavepoint) throw new Error('This database driver has no savepoints');
    await this.inner.releaseSavepoint(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions) {
    return this.inner.releaseConnection(connection, options);
  }

  destroy(options?: AbortableOperationOptions) {
    return this.inner.destroy(options);
  }
}

async function normalised<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw normaliseDbError(error);
  }
}

function patch(connection: DatabaseConnection): void {
  const marked = connection as DatabaseConnection & { [PATCHED]?: true };
  if (marked[PATCHED]) return;
  const execute = connection.executeQuery.bind(connection);
  const stream = connection.streamQuery.bind(connection);
  connection.executeQuery = async (query, options) => {
    try {
      return await execute(query, options);
    } catch (error) {
      throw normaliseDbError(error);
    }
  };
  connection.streamQuery = async function* (query, chunkSize, options) {
    try {
      yield* stream(query, chunkSize, options);
    } catch (error) {
      throw normaliseDbError(error);
    }
  };
  marked[PATCHED] = true;
}
