/**
 * The people port: what the files domain shows of other accounts (their names, avatars and
 * public keys, from `users`). Their space is the quota port's (quota.ts).
 */

import type { PublicUser, UserSummary } from '@sealbox/rules';

export type { PublicUser, UserSummary };

export interface PeopleReader {
  /** These users, those that exist, in no particular order. */
  userSummaries(ids: readonly string[]): Promise<UserSummary[]>;
  /** These users with their public keys, those that exist and are not deleted, in no particular order. */
  publicUsers(ids: readonly string[]): Promise<PublicUser[]>;
}
