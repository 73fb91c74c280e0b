/**
 * postgres.js (3.4) sends small writes on a later turn (setImmediate). When a connection closes
 * it clears that turn and drops its socket, but under Bun a turn already queued can still run:
 * `socket.write` on the dropped socket then throws a TypeError from a timer, outside any promise,
 * and an uncaught exception would stop the process in the middle of a database outage (seen in
 * apps/server/test/scale-out.test.ts's outage journey). By then the connection is closed and its
 * queries have already failed with it, so that one error is safe to let pass; main.ts does, and
 * stops on any other (docs/operations.md, "PostgreSQL restarted or unreachable").
 */
export function isLateWriteOnClosedConnection(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    error.message.includes('socket.write') &&
    /[\\/]postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? '')
  );
}
