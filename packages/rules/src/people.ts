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
