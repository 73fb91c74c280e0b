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
}
