import { EMAIL_INVALID_TEXT, type PublicUser, USER_NOT_FOUND_TEXT } from '@sealbox/rules';
import type { UserRecord } from '../../ports/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { parseStoredKdf, type KdfParams } from './kdf.ts';
import { characterCount, checkEmail, checkUsername, isUuid } from './validation.ts';

/** What the login page needs before it can derive the login hash. */
export interface LoginLookup {
  id: string;
  username: string;
  passwordSalt: string;
  kdf: KdfParams;
}

export const SEARCH_MIN_CHARACTERS = 3;
export const SEARCH_MAX_RESULTS = 10;

export function toPublicUser(user: UserRecord): PublicUser {
  return {
    id: user.id,
    username: user.username,
    publicKey: user.publicKey,
    signingPublicKey: user.signingPublicKey,
    avatarExtension: user.avatarExtension,
  };
}

export async function findPublicUser(deps: AccountsDeps, id: string): Promise<PublicUser> {
  const user = isUuid(id) ? await deps.users.findById(id) : undefined;
  if (!user) throw new DomainError('NOT_FOUND', USER_NOT_FOUND_TEXT);
  return toPublicUser(user);
}

/** docs/product.md "Limits": the login lookup, one exact (case-insensitive) match. */
export async function loginLookup(deps: AccountsDeps, name: string, clientIp: string): Promise<LoginLookup[]> {
  await deps.limiter.hit('lookupIp', clientIp);
  const user = await deps.users.findByUsername(name);
  if (!user) throw new DomainError('NOT_FOUND', USER_NOT_FOUND_TEXT);
  return [{ id: user.id, username: user.username, passwordSalt: user.passwordSalt, kdf: parseStoredKdf(user.kdf) }];
}

/** docs/product.md "Roles": share targets, at least 3 typed characters, at most 10 results, never oneself. */
export async function searchUsers(
  deps: AccountsDeps,
  caller: { userId: string; clientIp: string },
  name: string,
  page: { limit: number; offset: number },
): Promise<PublicUser[]> {
  if (characterCount(name) < SEARCH_MIN_CHARACTERS) {
    throw new DomainError('VALIDATION', `Type at least ${SEARCH_MIN_CHARACTERS} characters to search.`);
  }
  await deps.limiter.hit('searchIp', caller.clientIp);
  await deps.limiter.hit('searchAccount', caller.userId);
  const limit = Math.min(page.limit, SEARCH_MAX_RESULTS);
  const users = await deps.users.searchByPrefix(name, { excludeId: caller.userId, limit, offset: page.offset });
  return users.map(toPublicUser);
}

/** GET /api/check: ok = free. Exactly one of the two is given (the route's schema and this). */
export async function isAvailable(
  deps: AccountsDeps,
  query: { username?: string; email?: string },
  clientIp: string,
): Promise<{ ok: boolean }> {
  const { username, email } = query;
  if ((username === undefined) === (email === undefined)) {
    throw new DomainError('VALIDATION', 'Give exactly one of username or email');
  }
  await deps.limiter.hit('checkIp', clientIp);
  if (username !== undefined) return { ok: !(await deps.users.usernameTaken(checkUsername(username))) };
  const checked = checkEmail(email!);
  if (checked === null) throw new DomainError('VALIDATION', EMAIL_INVALID_TEXT);
  return { ok: !(await deps.users.emailTaken(checked)) };
}
