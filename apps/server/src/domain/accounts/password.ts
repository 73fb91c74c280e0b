import { nameKey, type UserRecord } from '../../ports/accounts.ts';
import type { AccountsDeps } from './deps.ts';
import { hashLoginPassword } from './registration.ts';

export interface PasswordAttempt {
  /** The name as typed at login, or the account's own: both count under its nameKey. */
  username: string;
  /** The argon2id login hash the browser derived (docs/protocol.md "Account"). */
  password: string;
  clientIp: string;
}

// Verifying against this when the name is unknown makes both failures take as long.
let decoyVerifier: Promise<string> | undefined;

/**
 * Checks a login password under the two failure limits of rate-limits.ts: an address that keeps
 * failing on an account is refused (429), all addresses together only slow the account down, so
 * failures from elsewhere never refuse the owner's right password. A right one takes both hits back.
 */
export async function passwordMatches(
  deps: AccountsDeps,
  user: UserRecord | undefined,
  attempt: PasswordAttempt,
): Promise<boolean> {
  return guessLimited(deps, attempt, async () => {
    decoyVerifier ??= hashLoginPassword('decoy');
    const verifier = user?.loginVerifier ?? (await decoyVerifier);
    const verified = await Bun.password.verify(attempt.password, verifier).catch(() => false);
    return verified && user !== undefined;
  });
}

/**
 * A guess at an account's secret (its password, or its recovery phrase) under the login's two
 * failure limits: `check` runs after both hits, and a right guess takes them back.
 */
export async function guessLimited(
  deps: AccountsDeps,
  attempt: { username: string; clientIp: string },
  check: () => Promise<boolean>,
): Promise<boolean> {
  const account = nameKey(attempt.username);
  const accountAtAddress = `${account}\0${attempt.clientIp}`;
  await deps.limiter.hit('loginAccountIp', accountAtAddress);
  await deps.limiter.slow('loginAccountSlow', account);
  const ok = await check();
  if (ok) {
    await deps.limiter.refund('loginAccountIp', accountAtAddress);
    await deps.limiter.refund('loginAccountSlow', account);
  }
  return ok;
}
