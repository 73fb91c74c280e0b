import { DomainError } from '../../domain/errors.ts';

// PostgreSQL SQLSTATEs (postgres.js puts them in `code`, the constraint in `constraint_name`).
const PG_UNIQUE = '23505';
const PG_FOREIGN_KEY = '23503';
const PG_CHECK = '23514';

/** What an unanswered request is told while the database cannot be reached. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable; try again shortly';

/**
 * The connection, not the query, failed: postgres.js's own codes, the socket's, SQLSTATE class
 * 08 (connection exception) and 57P01-57P03 (shut down by an administrator, a crash, or still
 * starting), and a database refusing connections (what a restart or maintenance looks like).
 */
function isConnectionLoss(code: unknown, message: string): boolean {
  if (typeof code !== 'string') return false;
  if (['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT'].includes(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  if (code.startsWith('08') && code.length === 5) return true;
  if (code === '57P01' || code === '57P02' || code === '57P03') return true;
  return code === '55000' && message.includes('not currently accepting connections');
}

/**
 * Turns constraint violations of either dialect into the same DomainError. The driver's message
 * is not reused: PostgreSQL's detail quotes the offending values.
 */
export function normaliseDbError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || error instanceof DomainError) return error;
  const {
    code,
    constraint_name: pgConstraint,
    message,
  } = error as {
    code?: unknown;
    constraint_name?: unknown;
    message?: unknown;
  };
  const text = typeof message === 'string' ? message : '';
  const constraint = typeof pgConstraint === 'string' ? pgConstraint : sqliteConstraint(text);
  const options = { cause: error, ...(constraint ? { detail: constraint } : {}) };
  if (code === PG_UNIQUE || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new DomainError('CONFLICT', 'Already exists', options);
  }
  if (code === PG_FOREIGN_KEY || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new DomainError('REFERENCE_MISSING', 'Refers to something that does not exist or is still referenced', options);
  }
  if (code === PG_CHECK || code === 'SQLITE_CONSTRAINT_CHECK') {
    return new DomainError('VALIDATION', 'Value out of range', options);
  }
  // A 503 the client retries (as it does any 5xx), not an "Internal server error".
  if (isConnectionLoss(code, text)) return new DomainError('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, { cause: error });
  return error;
}

/** "UNIQUE constraint failed: index 'users_username_ci_unique'" / "...failed: users.id" */
function sqliteConstraint(message: string): string | undefined {
  const match = /constraint failed: (?:index ')?([^',]+)'?/i.exec(message);
  return match?.[1];
}
