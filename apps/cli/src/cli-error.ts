/**
 * What a script can rely on (docs/cli.md "Exit codes"): every failure is a CliError with one of
 * these codes and a one-line text on stderr (or `{ error, code }` with --json).
 */
export const EXIT = {
  ok: 0,
  /** Anything not named below: the server failed, an answer made no sense. */
  failed: 1,
  /** The command line itself: an unknown command, a missing argument, a bad option. */
  usage: 2,
  /** Not signed in, the session ended, a wrong password or TOTP code. */
  auth: 3,
  /** A remote path or item that does not exist. */
  notFound: 4,
  /** A name that means more than one item, or one already taken. */
  conflict: 5,
  /** The server could not be reached. */
  network: 6,
  /** A name, key or signature did not open: the server's data is not to be trusted. */
  integrity: 7,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failed,
    /** Worth another try: the network failed, or the server answered 5xx. */
    readonly retryable = exitCode === EXIT.network,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
