/**
 * Signing in and unlocking (docs/cli.md "Sessions and keys"; the steps of docs/protocol.md
 * "Account", as the web app takes them): lookup, the argon2id login password, POST /api/login
 * (a second call with the TOTP code when asked), and a check that the sealed keys open before
 * the session is kept. Later commands unlock again with the password: POST /api/account/sealed
 * answers the sealed keys only to the current login password, so the keys never rest on disk
 * (unless the user saves a keyring under a passphrase: keyring.ts).
 */
import {
  type AccountKeys,
  type SealedInput,
  checkAccountKdf,
  deriveLoginPassword,
  isCryptoError,
  passwordKeys,
  unlockAccount,
} from '@sealbox/crypto';
import { INVALID_CREDENTIALS_TEXT, USER_NOT_FOUND_TEXT } from '@sealbox/rules';
import { CliError, EXIT } from './cli-error.ts';
import { type Api, SESSION_COOKIE, answer, apiClient, connect, cookieSet, refusal } from './client.ts';
import type { StoredSession } from './config.ts';
import { loadKeyring, openKeyring } from './keyring.ts';
import { readPassphrase, readPassword, readTotpCode, type SecretOptions } from './secrets.ts';

/** A server URL as given, checked and without a trailing slash. */
export function serverUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new CliError(`Not a server URL: ${given}`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`Not an http(s) URL: ${given}`, EXIT.usage);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The login password, and for version 2 the wrapping key of the same argon2id run. */
async function passwordSecrets(server: string, api: Api, username: string, password: string) {
  const found = await api.api.users.search({ name: username }).get({ query: { limit: 1 } });
  if (found.status === 404) throw new CliError(USER_NOT_FOUND_TEXT, EXIT.auth);
  const [entry] = (await answer(Promise.resolve(found), server)) as Array<{ passwordSalt?: string; kdf?: unknown }>;
  if (!entry?.passwordSalt) throw new CliError(USER_NOT_FOUND_TEXT, EXIT.auth);
  const { passwordSalt } = entry;
  const kdf = checkAccountKdf(entry.kdf);
  if (kdf.version !== 2) {
    return { passwordSalt, loginPassword: await deriveLoginPassword(password, passwordSalt, kdf), wrappingKey: undefined };
  }
  // Version 2: one argon2id run gives both (the salt is version 1's PBKDF2 salt, unused here).
  return { passwordSalt, ...(await passwordKeys(password, { passwordSalt, salt: '', kdf })) };
}

/** Opens the sealed keys; a bundle that does not open (or whose keys are not the account's) stops here. */
async function openKeys(password: string, sealed: SealedInput, wrappingKey: CryptoKey | undefined): Promise<AccountKeys> {
  try {
    return await unlockAccount(password, sealed, wrappingKey ? { wrappingKey } : {});
  } catch (error) {
    if (isCryptoError(error) && error.code === 'KEY_CHANGED') {
      throw new CliError('The server answered keys that are not this account’s: refusing to go on.', EXIT.integrity);
    }
    throw new CliError('The keys did not open with this password.', EXIT.integrity);
  }
}

export interface LoginInput extends SecretOptions {
  server: string;
  username: string;
  totpCode?: string | undefined;
}

/** Signs in and answers the session to keep (the keys opened once, as a check, then dropped). */
export async function login(input: LoginInput): Promise<StoredSession> {
  const server = serverUrl(input.server);
  const api = apiClient(server);
  const password = await readPassword(input);
  const secrets = await passwordSecrets(server, api, input.username, password);
  const body = { username: input.username, password: secrets.loginPassword };
  let result = await api.api.login.post(input.totpCode ? { ...body, totpCode: input.totpCode } : body);
  if (result.status === 307) result = await api.api.login.post({ ...body, totpCode: input.totpCode ?? (await readTotpCode()) });
  if (result.response === undefined) throw new CliError(`Cannot reach ${server}.`, EXIT.network);
  if (result.status === 401) {
    const text = (result.error?.value as { message?: string } | undefined)?.message;
    throw new CliError(text ?? INVALID_CREDENTIALS_TEXT, EXIT.auth);
  }
  if (result.error || !result.data) throw refusal(result.status, result.error?.value, result.response);
  const token = cookieSet(result.response, SESSION_COOKIE);
  if (!token) throw new CliError('The server signed in without a session.', EXIT.failed);
  const signedIn = result.data;
  const session = { server, username: signedIn.user.username, userId: signedIn.user.id, token };
  try {
    await openKeys(password, { ...signedIn, passwordSalt: secrets.passwordSalt }, secrets.wrappingKey);
  } catch (error) {
    await logout(session).catch(() => {});
    throw error;
  }
  return session;
}

/**
 * The sealed keys for one command, fetched with the password read again (403 for a wrong one),
 * with what opens them.
 */
export async function sealedKeys(session: StoredSession, options: SecretOptions = {}) {
  const { api } = connect(session.server, session.token);
  const password = await readPassword(options);
  const secrets = await passwordSecrets(session.server, api, session.username, password);
  const result = await api.api.account.sealed.post({ currentPassword: secrets.loginPassword });
  if (result.status === 403) throw new CliError('Wrong password.', EXIT.auth);
  const sealed = await answer(Promise.resolve(result), session.server);
  return { password, sealed: { ...sealed, passwordSalt: secrets.passwordSalt }, wrappingKey: secrets.wrappingKey };
}

/**
 * The account's keys for one command: from the keyring with its passphrase when the user saved
 * one (keyring.ts), else the password read again and the server's sealed keys opened here.
 */
export async function unlock(session: StoredSession, options: SecretOptions = {}): Promise<AccountKeys> {
  const keyring = await loadKeyring(session);
  if (keyring) return openKeyring(keyring, await readPassphrase(options));
  const { password, sealed, wrappingKey } = await sealedKeys(session, options);
  return openKeys(password, sealed, wrappingKey);
}

/** Ends the session on the server (already ended is fine). */
export async function logout(session: StoredSession): Promise<void> {
  const { api } = connect(session.server, session.token);
  const result = await api.api.logout.post();
  if (result.response === undefined) throw new CliError(`Cannot reach ${session.server}.`, EXIT.network);
}
