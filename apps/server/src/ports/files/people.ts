/**
 * The people port: what the files domain shows of other accounts (their names, avatars and
 * public keys, from `users`). Their space is the quota port's (quota.ts).
 */

/** Who a person is, as listings name them. */
export interface UserSummary {
  id: string;
  username: string;
  avatarExtension: string | null;
}

/** What a sharer needs of a person: who they are and their public keys. */
export interface PublicUser extends UserSummary {
  publicKey: string;
  signingPublicKey: string;
}

export interface PeopleReader {
  /** These users, those that exist, in no particular order. */
  userSummaries(ids: readonly string[]): Promise<UserSummary[]>;
  /** These users with their public keys, those that exist, in no particular order. */
  publicUsers(ids: readonly string[]): Promise<PublicUser[]>;
}
