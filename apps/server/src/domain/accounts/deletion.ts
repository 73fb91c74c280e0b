import type { UserRecord } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import { endAccount, purgeAccount } from '../files/account-deletion.ts';
import type { FilesPorts } from '../files/deps.ts';
import type { AccountsDeps } from './deps.ts';
import { passwordMatches } from './password.ts';
import { sessionEnded } from './sessions.ts';
import { acceptCode, WRONG_PASSWORD, wrongCodeText } from './totp.ts';

/** POST /api/account/delete: what proves the caller means it (docs/protocol.md "Deleting an account"). */
export interface DeleteAccountInput {
  /** The current login hash, as at login: a session alone (a stolen cookie) cannot delete. */
  password: string;
  /** Needed while TOTP is on: the app's code or a TOTP recovery code. */
  totpCode?: string | undefined;
  /** The account's username typed again, so no stray call deletes an account. */
  confirm: string;
}

export const CONFIRM_MISMATCH = 'Type your username exactly to confirm.';
export const TOTP_NEEDED = 'Enter the 6-digit code from your authenticator app.';

/**
 * Deletes the caller's account: checks the password, the second factor and the typed name, ends
 * the account in one transaction, and returns the removal of its items, which the caller lets
 * run on (the sweep finishes it if the process stops first).
 */
export async function deleteAccount(
  deps: { accounts: AccountsDeps; files: FilesPorts },
  caller: { user: UserRecord; sessionId: string; clientIp: string },
  input: DeleteAccountInput,
): Promise<{ purged: Promise<void> }> {
  const { user, clientIp } = caller;
  if (input.confirm !== user.username) throw new DomainError('VALIDATION', CONFIRM_MISMATCH);
  const attempt = { username: user.username, password: input.password, clientIp };
  if (!(await passwordMatches(deps.accounts, user, attempt))) throw new DomainError('FORBIDDEN', WRONG_PASSWORD);
  if (user.totpEnabled && user.totpSecret) {
    if (!input.totpCode) throw new DomainError('VALIDATION', TOTP_NEEDED);
    // A TOTP recovery code is taken too (totp.ts), as everywhere a code is asked.
    if (!(await acceptCode(deps.accounts, { user, secret: user.totpSecret, code: input.totpCode }))) {
      throw new DomainError('VALIDATION', wrongCodeText(input.totpCode));
    }
  }
  const ended = await endAccount(deps.files, user.id, (sessionId) => sessionEnded(user.id, sessionId), caller.sessionId);
  if (!ended) throw new DomainError('UNAUTHORIZED', 'Account no longer exists');
  const purged = purgeAccount(deps.files, user.id).catch((error: unknown) => {
    deps.files.logger.error('account delete left for the sweep', { userId: user.id, error: String(error) });
  });
  return { purged };
}
