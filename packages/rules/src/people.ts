/**
 * What one account is shown of another (docs/protocol.md "Sharing"): the server answers with these
 * shapes and the web app reads them as they are.
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

/**
 * How the server names a deleted account where others still see it (the uploader of items it
 * made in their folders): `deleted:` and its id. Longer than any username may be, so no account
 * can take it, and the web app shows it as "Deleted account" (docs/protocol.md "Deleting an account").
 */
const DELETED_ACCOUNT_PREFIX = 'deleted:';

export const DELETED_ACCOUNT_TEXT = 'Deleted account';

export function deletedAccountName(userId: string): string {
  return `${DELETED_ACCOUNT_PREFIX}${userId}`;
}

export function isDeletedAccountName(username: string): boolean {
  return username.startsWith(DELETED_ACCOUNT_PREFIX) && username.length > 20;
}
