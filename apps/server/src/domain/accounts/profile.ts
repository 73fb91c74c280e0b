import { EMAIL_TAKEN_TEXT, USERNAME_TAKEN_TEXT } from '@sealbox/rules';
import type { SortBy, SortOrder, SpaceUsedField, UserPreferenceField, UserRecord } from '../../ports/accounts.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';
import { DomainError, isDomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { checkEmail } from './validation.ts';

/**
 * docs/protocol.md `Profile`: what a signed-in user sees of themselves (no secrets, no verifier).
 * toProfile copies field by field, so nothing new on the record reaches it by accident.
 */
export type Profile = Pick<
  UserRecord,
  | 'id'
  | 'username'
  | 'email'
  | 'publicKey'
  | 'signingPublicKey'
  | UserPreferenceField
  | SpaceUsedField
  | 'totalSpace'
  | 'totpEnabled'
  | 'createdAt'
>;

export const SORT_BY: readonly SortBy[] = ['name', 'size', 'created', 'modified', 'owner', 'uploader', 'extension'];

export function toProfile(user: UserRecord): Profile {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    publicKey: user.publicKey,
    signingPublicKey: user.signingPublicKey,
    gridView: user.gridView,
    sortBy: user.sortBy,
    sortOrder: user.sortOrder,
    avatarExtension: user.avatarExtension,
    usedSpace: user.usedSpace,
    reservedSpace: user.reservedSpace,
    totalSpace: user.totalSpace,
    totpEnabled: user.totpEnabled,
    createdAt: user.createdAt,
  };
}

/** A unique-index CONFLICT from the repository, with docs/product.md "Input rules" text for the field. */
export function conflictMessage(error: unknown): never {
  if (isDomainError(error, 'CONFLICT')) {
    throw new DomainError('CONFLICT', error.detail === 'email' ? EMAIL_TAKEN_TEXT : USERNAME_TAKEN_TEXT, {
      cause: error,
      detail: error.detail ?? 'username',
    });
  }
  throw error;
}

function profileChanged(userId: string): SealboxEvent {
  return { kind: 'profile.changed', userIds: [userId] };
}

async function updated(
  deps: AccountsDeps,
  userId: string,
  changes: Parameters<AccountsDeps['users']['update']>[1],
): Promise<Profile> {
  const user = await deps.users.update(userId, changes, profileChanged(userId)).catch(conflictMessage);
  if (!user) throw new DomainError('UNAUTHORIZED', 'Account no longer exists');
  return toProfile(user);
}

/** A 409 says the email belongs to someone: counted like GET /api/check?email=, which says the same. */
export async function updateEmail(
  deps: AccountsDeps,
  caller: { userId: string; clientIp: string },
  email: string | null,
): Promise<Profile> {
  await deps.limiter.hit('checkIp', caller.clientIp);
  return updated(deps, caller.userId, { email: checkEmail(email) });
}

export interface Preferences {
  gridView?: boolean;
  sortBy?: SortBy;
  sortOrder?: SortOrder;
}

export async function updatePreferences(deps: AccountsDeps, userId: string, preferences: Preferences): Promise<Profile> {
  return updated(deps, userId, {
    ...(preferences.gridView !== undefined ? { gridView: preferences.gridView } : {}),
    ...(preferences.sortBy !== undefined ? { sortBy: preferences.sortBy } : {}),
    ...(preferences.sortOrder !== undefined ? { sortOrder: preferences.sortOrder } : {}),
  });
}
