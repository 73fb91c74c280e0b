import { INVALID_CREDENTIALS_TEXT } from '@sealbox/rules';
import type { UserRecord } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import type { SealedAccount } from './registration.ts';
import { parseStoredKdf } from './kdf.ts';
import { passwordMatches } from './password.ts';
import { toProfile, type Profile } from './profile.ts';
import { endSessionByToken, startSession, type IssuedSession } from './sessions.ts';
import { acceptCode, wrongCodeText, type AcceptedCode } from './totp.ts';

export interface LoginInput {
  username: string;
  password: string;
  totpCode?: string | undefined;
  clientIp: string;
  userAgent: string | null;
  /** The cookie this browser sent, if any: it is ended whatever happens next. */
  previousToken: string | undefined;
}

/** Everything the browser needs to unlock its keys (docs/protocol.md POST /api/login). */
export interface LoginAnswer extends SealedAccount {
  user: Profile;
  /** Only when a recovery code signed in: how many the account has left (docs/protocol.md "TOTP recovery codes"). */
  recoveryCodesLeft?: number;
}

export type LoginResult =
  | { kind: 'signed-in'; issued: IssuedSession; answer: LoginAnswer }
  | { kind: 'totp-required'; issued: IssuedSession };

export async function login(deps: AccountsDeps, input: LoginInput): Promise<LoginResult> {
  await deps.limiter.hit('loginIp', input.clientIp);
  const user = await deps.users.findByUsername(input.username);
  // passwordMatches is false without a user; `!user` tells the type checker so.
  if (!(await passwordMatches(deps, user, input)) || !user) throw new DomainError('UNAUTHORIZED', INVALID_CREDENTIALS_TEXT);

  // Whatever this browser was signed in as, that session ends with a new login.
  await endSessionByToken(deps, input.previousToken);

  let accepted: AcceptedCode = false;
  if (user.totpEnabled && user.totpSecret) {
    if (input.totpCode === undefined || input.totpCode === '') {
      return {
        kind: 'totp-required',
        issued: await startSession(deps, user, { totpPending: true, userAgent: input.userAgent }),
      };
    }
    // A recovery code used: the account's other tabs hear of it (Profile's count of codes left).
    const recoveryEvent = { kind: 'profile.changed' as const, userIds: [user.id] };
    accepted = await acceptCode(deps, { user, secret: user.totpSecret, code: input.totpCode, recoveryEvent });
    if (!accepted) throw new DomainError('UNAUTHORIZED', wrongCodeText(input.totpCode));
  }
  await deps.sessions.deleteExpired(deps.clock());
  const issued = await startSession(deps, user, { totpPending: false, userAgent: input.userAgent });
  const answer: LoginAnswer = loginAnswer(user);
  if (accepted === 'recovery') answer.recoveryCodesLeft = await deps.totpRecoveryCodes.count(user.id);
  return { kind: 'signed-in', issued, answer };
}

function loginAnswer(user: UserRecord): LoginAnswer {
  return { user: toProfile(user), ...sealedAccountOf(user) };
}

/** The account's sealed bundle and what opens it (never a secret the server could read). */
export function sealedAccountOf(user: UserRecord): SealedAccount {
  return {
    salt: user.salt,
    iv: user.iv,
    encryptedPrivateKey: user.encryptedPrivateKey,
    publicKey: user.publicKey,
    signingPublicKey: user.signingPublicKey,
    kdf: parseStoredKdf(user.kdf),
  };
}
