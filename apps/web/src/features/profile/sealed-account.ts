/**
 * What re-sealing the account needs (a password change, a new recovery phrase): the typed
 * password's login hash, as sign-in derives it, and the sealed account the server hands out
 * only for it (docs/protocol.md "Password change").
 */
import type { SealedAccountInput } from '../../crypto/client.ts';
import { PASSWORD_CHANGE_MESSAGES, deriveLoginHash, postSealedAccount, type Profile } from '../auth/index.ts';

export type SealedForPassword = { ok: true; loginHash: string; sealed: SealedAccountInput } | { ok: false; message: string };

export async function sealedForPassword(profile: Pick<Profile, 'id' | 'username'>, password: string): Promise<SealedForPassword> {
  const derived = await deriveLoginHash(profile.username, password);
  if (derived.kind !== 'hash') return { ok: false, message: derived.failure.message ?? PASSWORD_CHANGE_MESSAGES.failed };
  const sealed = await postSealedAccount(derived.loginHash);
  if (!sealed.ok) {
    return { ok: false, message: sealed.status === 403 ? PASSWORD_CHANGE_MESSAGES.wrong : PASSWORD_CHANGE_MESSAGES.failed };
  }
  return { ok: true, loginHash: derived.loginHash, sealed: { ...sealed.data, userId: profile.id } };
}
