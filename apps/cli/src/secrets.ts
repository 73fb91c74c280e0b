/**
 * Passwords and codes (docs/cli.md "Passwords"): never from the command line, where other users
 * see them in the process list. From `SEALBOX_PASSWORD` / `SEALBOX_TOTP` (scripts), from stdin
 * with --password-stdin, or typed at a terminal prompt that does not echo them.
 */
import { CliError, EXIT } from './cli-error.ts';

/** Reads one line from a terminal without echoing it. */
async function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY)
    throw new CliError(`${question.trim()} needed: set it in the environment or use --password-stdin.`, EXIT.usage);
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  let typed = '';
  try {
    return await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n') {
            stdin.off('data', onData);
            resolve(typed);
            return;
          }
          if (char === '\u0003') {
            stdin.off('data', onData);
            reject(new CliError('Cancelled.', EXIT.usage));
            return;
          }
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
          else typed += char;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}

/** All of stdin, its one trailing newline removed. */
async function readStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.replace(/\r?\n$/, '');
}

export interface SecretOptions {
  passwordStdin?: boolean | undefined;
}

export async function readPassword(options: SecretOptions = {}): Promise<string> {
  if (options.passwordStdin) return readStdin();
  const fromEnv = process.env.SEALBOX_PASSWORD;
  if (fromEnv) return fromEnv;
  return promptHidden('Password: ');
}

export async function readTotpCode(): Promise<string> {
  const fromEnv = process.env.SEALBOX_TOTP;
  if (fromEnv) return fromEnv;
  return promptHidden('TOTP code (or a recovery code): ');
}

/** A link's password: `SEALBOX_LINK_PASSWORD`, or a prompt that does not echo it. */
export async function readLinkPassword(): Promise<string> {
  const fromEnv = process.env.SEALBOX_LINK_PASSWORD;
  if (fromEnv) return fromEnv;
  return promptHidden('Link password: ');
}

/**
 * The keyring's passphrase (keyring.ts): `SEALBOX_KEYRING_PASSPHRASE`, stdin with
 * --password-stdin, or a prompt that does not echo it (twice when a new one is chosen).
 */
export async function readPassphrase(options: SecretOptions = {}, choosing = false): Promise<string> {
  const fromEnv = process.env.SEALBOX_KEYRING_PASSPHRASE;
  if (fromEnv) return fromEnv;
  if (options.passwordStdin && !choosing) return readStdin();
  const passphrase = await promptHidden(choosing ? 'New keyring passphrase: ' : 'Keyring passphrase: ');
  if (choosing && (await promptHidden('The passphrase again: ')) !== passphrase)
    throw new CliError('The passphrases do not match.', EXIT.usage);
  return passphrase;
}
