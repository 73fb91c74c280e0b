import { describe, expect, test } from 'bun:test';
import { isLateWriteOnClosedConnection } from './late-write.ts';

/** The error as Bun reports it when postgres.js writes after its socket was dropped. */
function lateWrite(stackFile: string): TypeError {
  const error = new TypeError("null is not an object (evaluating 'socket.write')");
  error.stack = `TypeError: ${error.message}\n      at nextWrite (${stackFile}:255:15)`;
  return error;
}

describe('a late write on a closed postgres.js connection', () => {
  test('is recognised from where postgres.js threw it', () => {
    expect(isLateWriteOnClosedConnection(lateWrite('/app/node_modules/postgres/src/connection.js'))).toBe(true);
    expect(isLateWriteOnClosedConnection(lateWrite('C:\\app\\node_modules\\postgres\\src\\connection.js'))).toBe(true);
  });

  test('nothing else passes: the same words elsewhere, another error, or not an error', () => {
    expect(isLateWriteOnClosedConnection(lateWrite('/app/apps/server/src/http/app.ts'))).toBe(false);
    const other = new TypeError("undefined is not an object (evaluating 'item.id')");
    other.stack = `TypeError: ${other.message}\n      at x (/app/node_modules/postgres/src/connection.js:1:1)`;
    expect(isLateWriteOnClosedConnection(other)).toBe(false);
    expect(isLateWriteOnClosedConnection(new Error('socket.write'))).toBe(false);
    expect(isLateWriteOnClosedConnection("null is not an object (evaluating 'socket.write')")).toBe(false);
  });
});
