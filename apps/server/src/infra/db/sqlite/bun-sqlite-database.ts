import type { Database as BunDatabase, SQLQueryBindings } from 'bun:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Adapts bun:sqlite to the better-sqlite3 shape Kysely's SqliteDialect expects:
 * Kysely passes parameters as one array, bun's statements take them spread.
 */
export function asKyselySqliteDatabase(db: BunDatabase): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(source: string): SqliteStatement {
      // query() caches compiled statements by SQL text; Kysely re-prepares on every execution.
      const statement = db.query<unknown, SQLQueryBindings[]>(source);
      const bind = (params: ReadonlyArray<unknown>) => params.map(toBinding);
      return {
        reader: statement.columnNames.length > 0,
        all: (params) => statement.all(...bind(params)),
        run: (params) => statement.run(...bind(params)),
        iterate: (params) => statement.iterate(...bind(params)),
      };
    },
  };
}

// bun:sqlite refuses booleans in some versions and undefined always; make both explicit.
function toBinding(value: unknown): SQLQueryBindings {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLQueryBindings;
}
