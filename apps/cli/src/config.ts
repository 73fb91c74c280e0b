/**
 * Where the CLI keeps its session (docs/cli.md "Files"): `$SEALBOX_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/sealbox`, else `~/.config/sealbox`. The folder is 0700 and session.json 0600:
 * the session token is a bearer secret. Unlocked keys are never written here (a keyring, asked
 * for, holds them sealed under a passphrase: keyring.ts).
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface StoredSession {
  server: string;
  username: string;
  userId: string;
  /** The `sealbox_session` cookie's value. */
  token: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SEALBOX_CONFIG_DIR) return env.SEALBOX_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'sealbox');
}

const sessionPath = () => join(configDir(), 'session.json');

export async function ensureConfigDir(): Promise<void> {
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

export async function saveSession(session: StoredSession): Promise<void> {
  await ensureConfigDir();
  // Written 0600 from the start, so the token is never readable by others even for a moment.
  await writeFile(sessionPath(), `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  await chmod(sessionPath(), 0o600);
}

export async function loadSession(): Promise<StoredSession | undefined> {
  let text: string;
  try {
    text = await readFile(sessionPath(), 'utf8');
  } catch {
    return undefined;
  }
  const value = JSON.parse(text) as Partial<StoredSession>;
  const fields = [value.server, value.username, value.userId, value.token];
  return fields.every((field) => typeof field === 'string' && field !== '') ? (value as StoredSession) : undefined;
}

export async function forgetSession(): Promise<void> {
  await rm(sessionPath(), { force: true });
}
