/**
 * The accounts endpoints of docs/protocol.md ("HTTP endpoints" → "Accounts"), as plain
 * functions over the typed Eden client. Each returns the status with the data or the
 * server's message, so screens branch on statuses (docs/product.md "Messages") without touching Eden.
 */
import type { SealedAccountInput } from '../../crypto/client.ts';
import { api, errorMessageOf } from '../../lib/api.ts';

export type Answer<T> = { ok: true; status: number; data: T } | { ok: false; status: number; message: string | undefined };

type EdenResult = { data: unknown; error: { status: unknown; value: unknown } | null; status: number };

function answer<T>(result: EdenResult): Answer<T> {
  if (result.error === null && result.status >= 200 && result.status < 300) {
    return { ok: true, status: result.status, data: result.data as T };
  }
  return { ok: false, status: result.status, message: errorMessageOf(result.error) };
}

type ProfileGet = Awaited<ReturnType<typeof api.api.profile.get>>;
/** GET /api/profile, as the server types it. */
export type Profile = NonNullable<ProfileGet['data']>;
export type SortBy = Profile['sortBy'];
export type SortOrder = Profile['sortOrder'];
export const SORT_BY_VALUES = [
  'name',
  'size',
  'created',
  'modified',
  'owner',
  'uploader',
  'extension',
] as const satisfies readonly SortBy[];

type LoginPost = Awaited<ReturnType<typeof api.api.login.post>>;
export type LoginSuccess = NonNullable<LoginPost['data']>;

type SessionsGet = Awaited<ReturnType<typeof api.api.sessions.get>>;
export type SessionInfo = NonNullable<SessionsGet['data']>[number];

export type RegistrationBody = Parameters<typeof api.api.register.post>[0];
export type Preferences = Parameters<typeof api.api.profile.preferences.put>[0];

/** Anonymous login lookup: exact, case-insensitive username; 404 when there is none. */
export async function lookupLogin(username: string): Promise<Answer<unknown>> {
  return answer(await api.api.users.search({ name: username }).get({ query: { limit: 1 } }));
}

export async function postLogin(body: { username: string; password: string; totpCode?: string }): Promise<Answer<unknown>> {
  return answer(await api.api.login.post(body));
}

export async function postLogout(): Promise<Answer<unknown>> {
  return answer(await api.api.logout.post());
}

export async function postRegister(body: RegistrationBody): Promise<Answer<{ id: string }>> {
  return answer(await api.api.register.post(body));
}

export type KdfUpgradeBody = Parameters<typeof api.api.account.kdf.put>[0];

/**
 * PUT /api/account/kdf: a version-1 account re-sealed under version-2 password keys, sent right
 * after it was unlocked; `currentPassword` is the login password that signed in.
 */
export async function putAccountKdf(body: KdfUpgradeBody): Promise<Answer<unknown>> {
  return answer(await api.api.account.kdf.put(body));
}

/** POST /api/account/sealed: the sealed account, for the current login password (a password change). */
export async function postSealedAccount(currentPassword: string): Promise<Answer<SealedAccountAnswer>> {
  return answer(await api.api.account.sealed.post({ currentPassword }));
}

/** The sealed bundle and what opens it; the crypto worker checks every field before use. */
export type SealedAccountAnswer = Omit<SealedAccountInput, 'userId'> & { passwordSalt: string };

/** PUT /api/account/password: the account re-sealed under the new password; other sessions end. */
export async function putAccountPassword(body: KdfUpgradeBody): Promise<Answer<{ endedSessions: number }>> {
  return answer(await api.api.account.password.put(body));
}

export type DeleteAccountBody = Parameters<typeof api.api.account.delete.post>[0];

/** POST /api/account/delete: ends the account for good (docs/protocol.md "Deleting an account"). */
export async function deleteAccount(body: DeleteAccountBody): Promise<Answer<unknown>> {
  return answer(await api.api.account.delete.post(body));
}

/** GET /api/account/recovery: when the account's recovery phrase was made; null for none. */
export async function getRecoveryStatus(): Promise<Answer<{ createdAt: number | null }>> {
  return answer(await api.api.account.recovery.get());
}

export type RecoveryBody = Parameters<typeof api.api.account.recovery.put>[0];

/** PUT /api/account/recovery: a new phrase's copy and proof; the phrase before stops working. */
export async function putRecovery(body: RecoveryBody): Promise<Answer<{ createdAt: number }>> {
  return answer(await api.api.account.recovery.put(body));
}

export interface RecoveryCopyAnswer {
  userId: string;
  recoverySealed: string;
  recoveryNonce: string;
  publicKey: string;
  signingPublicKey: string;
}

/** POST /api/recovery/open: the account's recovery copy, for the phrase's recoveryAuth. */
export async function postRecoveryOpen(username: string, recoveryAuth: string): Promise<Answer<RecoveryCopyAnswer>> {
  return answer(await api.api.recovery.open.post({ username, recoveryAuth }));
}

export type RecoveryResetBody = Parameters<typeof api.api.recovery.reset.post>[0];

/** POST /api/recovery/reset: the new password's keys and a fresh recovery copy; every session ends. */
export async function postRecoveryReset(body: RecoveryResetBody): Promise<Answer<unknown>> {
  return answer(await api.api.recovery.reset.post(body));
}

/** GET /api/check: true when the username (or email) is free. */
export async function checkAvailable(field: 'username' | 'email', value: string): Promise<Answer<{ ok: boolean }>> {
  const query = field === 'username' ? { username: value } : { email: value };
  return answer(await api.api.check.get({ query }));
}

export async function getProfile(): Promise<Answer<Profile>> {
  return answer(await api.api.profile.get());
}

export async function putPreferences(preferences: Preferences): Promise<Answer<Profile>> {
  return answer(await api.api.profile.preferences.put(preferences));
}

export async function putEmail(email: string | null): Promise<Answer<Profile>> {
  return answer(await api.api.profile.put({ email }));
}

export async function uploadAvatar(file: File): Promise<Answer<{ avatarExtension: string }>> {
  return answer(await api.api.profile.upload.put({ avatar: file }));
}

/** `loginHash`: deriveLoginHash's, as at sign-in; the server wants the password for setup and disable. */
export async function totpSetup(loginHash: string): Promise<Answer<{ secret: string; uri: string }>> {
  return answer(await api.api.totp.put({ action: 'setup', password: loginHash }));
}

/** Turns TOTP on; the answer holds the ten recovery codes, the only time they are seen. */
export async function totpConfirm(code: string): Promise<Answer<{ enabled: true; recoveryCodes: string[] }>> {
  return answer(await api.api.totp.put({ action: 'confirm', code }));
}

/** `code`: the app's, or a recovery code (a lost device). */
export async function totpDisable(code: string, loginHash: string): Promise<Answer<{ enabled: false }>> {
  return answer(await api.api.totp.put({ action: 'disable', code, password: loginHash }));
}

/** New recovery codes for the password; the old ones stop working. */
export async function totpRecoveryCodes(loginHash: string): Promise<Answer<{ recoveryCodes: string[] }>> {
  return answer(await api.api.totp.put({ action: 'recovery-codes', password: loginHash }));
}

/** GET /api/totp: how many unused recovery codes the account has. */
export async function getTotpStatus(): Promise<Answer<{ recoveryCodesLeft: number }>> {
  return answer(await api.api.totp.get());
}

export async function listSessions(): Promise<Answer<SessionInfo[]>> {
  return answer(await api.api.sessions.get());
}

export async function endSession(id: string): Promise<Answer<unknown>> {
  return answer(await api.api.session({ id }).delete());
}

/** The avatar URL of a user; the server answers its built-in default when there is none. */
export function avatarUrl(userId: string, avatarExtension: string | null | undefined, version: string): string {
  return `/api/avatars/${encodeURIComponent(userId)}.${avatarExtension ?? 'png'}?v=${encodeURIComponent(version)}`;
}
