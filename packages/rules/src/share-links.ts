/** What the owner and a visitor see of a share link (docs/protocol.md "Items" "Share link"). */
export interface LinkView {
  linkId: string;
  itemId: string;
  editPermission: boolean;
  /** Epoch ms; null: never. */
  expiresAt: number | null;
  passwordProtected: boolean;
  createdAt: number;
  modifiedAt: number;
  /**
   * Its expiry has passed, as the server's clock says: it opens for nobody, and its owner sees it
   * as "Expired", to renew or delete, until EXPIRED_LINK_KEPT_MS after it expired.
   */
  expired: boolean;
}

/** How long an expired link stays listed to its owner before the server removes it: 30 days. */
export const EXPIRED_LINK_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
