import type { Generated } from 'kysely';

/**
 * Row shapes shared by SQLite and PostgreSQL. The column types are chosen so both dialects
 * return identical JS values:
 * - binary values (ciphertexts, nonces, salts, keys) are standard base64 TEXT;
 * - ids are TEXT (UUID v4 strings made by the client, or random server ids);
 * - sizes and timestamps (epoch milliseconds) are BIGINT read back as JS numbers;
 * - flags are INTEGER 0/1, since SQLite has no boolean and PostgreSQL's would come back as true/false.
 */
export type Flag = 0 | 1;
export type EpochMs = number;

export interface UsersTable {
  id: string;
  username: string;
  email: string | null;
  /** nameKey(username) / nameKey(email): what uniqueness and lookups compare (migration 005). */
  username_key: string | null;
  email_key: string | null;
  /** The server's own argon2id hash of the login hash the browser sends. */
  login_verifier: string;
  password_salt: string;
  /** JSON KdfParams of docs/protocol.md ({ version, argon2id: {...}, pbkdf2: {...} }), checked at registration. */
  kdf_params: string;
  salt: string;
  iv: string;
  encrypted_private_key: string;
  public_key: string;
  signing_public_key: string;
  grid_view: Generated<Flag>;
  /** name | size | created | modified | owner | uploader | extension */
  sort_by: Generated<string>;
  /** asc | desc (rows from before migration 002 were rewritten to asc) */
  sort_order: Generated<string>;
  avatar_extension: string | null;
  used_space: Generated<number>;
  /** Bytes promised to unfinished uploads (migration 003). */
  reserved_space: Generated<number>;
  total_space: number;
  /** Items the user owns, kept by the files store with every insert and delete (migration 006). */
  item_count: Generated<number>;
  /** Bumped with every change to the items the user owns (migration 019, docs/protocol.md "Tree version"). */
  tree_version: Generated<number>;
  totp_secret: string | null;
  totp_enabled: Generated<Flag>;
  /** Last accepted TOTP time step, so one code cannot be replayed. */
  totp_last_used_step: number | null;
  created_at: EpochMs;
  /** When the account was deleted (migration 016); null while it lives. */
  deleted_at: EpochMs | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token: a database leak does not hand out live sessions. */
  id: string;
  user_id: string;
  totp_pending: Generated<Flag>;
  user_agent: string | null;
  created_at: EpochMs;
  last_seen_at: EpochMs;
  expires_at: EpochMs;
}

export type ItemState = 'uploading' | 'ready';

export interface ItemsTable {
  id: string;
  parent_id: string | null;
  owner_id: string;
  /** The uploader; the owner's id where uploader_anonymous is 1 (a placeholder older builds read). */
  uploader_id: string;
  /**
   * 1: made by an anonymous link holder, 0: by the signed-in uploader_id (migration 011); null on
   * rows older builds wrote, which recorded an anonymous holder as the owner.
   */
  uploader_anonymous: Flag | null;
  is_directory: Flag;
  encrypted_file_name: string;
  name_nonce: string;
  encrypted_mime_type: string | null;
  mime_type_nonce: string | null;
  encrypted_key: string;
  key_nonce: string | null;
  file_nonce: string | null;
  size: Generated<number>;
  blob_key: string | null;
  state: ItemState;
  created_at: EpochMs;
  modified_at: EpochMs;
  /** Set on the folder of a delete in progress (migration 006); its subtree goes in batches. */
  deleting_since: EpochMs | null;
  /** Set on the item a delete moved to the owner's trash (migration 017); its subtree goes along. */
  trashed_at: EpochMs | null;
  /** Who deleted it (the owner, or an editor of a shared folder); null for an anonymous link holder. */
  trashed_by: string | null;
}

/** One item shared with one user (migration 001; sharer_id 007). */
export interface AccessesTable {
  item_id: string;
  user_id: string;
  /** K under the recipient's RSA-OAEP key (docs/protocol.md "Sharing with a user"). */
  encrypted_key: string;
  /** The sharer's signature over the grant; the server keeps it for the recipient to check. */
  signature: string;
  edit_permission: Flag;
  /** Who signed the grant; null on rows from before migration 007 (the owner shared those). */
  sharer_id: string | null;
  created_at: EpochMs;
}

/** A share link (migration 001; password_epoch 007). `id` is 128 random bits, base64url. */
export interface LinksTable {
  id: string;
  item_id: string;
  edit_permission: Flag;
  /** argon2id (Bun.password) of the link password; null: no password. */
  password_hash: string | null;
  /** Bumped by every password change: access proofs name the epoch they were made for. */
  password_epoch: Generated<number>;
  expires_at: EpochMs | null;
  created_at: EpochMs;
  modified_at: EpochMs;
  /** When the sweep ended the expired link (migration 013); null: not ended. */
  ended_at: EpochMs | null;
}

/** One unfinished file (migration 003); the item stays state 'uploading' until complete. */
export interface UploadsTable {
  id: string;
  item_id: string;
  /** The uploader; the quota charged is the item owner's. */
  user_id: string;
  /** The link the upload was started through (migration 007), null for a signed-in user's own. */
  link_id: string | null;
  /**
   * Started by an anonymous link holder (migration 010); null on rows older builds wrote, which
   * did not record it.
   */
  anonymous: Flag | null;
  /** Ciphertext size of the whole file. */
  size: number;
  parts: number;
  /** Bytes of the owner's reserved_space this upload still holds. */
  reserved_remaining: number;
  created_at: EpochMs;
  last_activity_at: EpochMs;
  expires_at: EpochMs;
  /** The item this upload becomes a new version of when it completes (migration 018); null otherwise. */
  version_of?: string | null;
}

/** One stored part of a file's ciphertext (docs/protocol.md "Part protocol"), one blob each. */
export interface ItemPartsTable {
  item_id: string;
  n: number;
  size: number;
  blob_key: string;
  created_at: EpochMs;
}

/** Earlier content of a file (migration 018, docs/protocol.md "Versions"). */
export interface ItemVersionsTable {
  id: string;
  item_id: string;
  size: number;
  file_nonce: string;
  encrypted_mime_type: string | null;
  mime_type_nonce: string | null;
  /** Who uploaded that content; null for an anonymous link holder. */
  uploader_id: string | null;
  /** When that content was uploaded. */
  created_at: EpochMs;
  /** When it stopped being the file's newest content (retention counts from here). */
  replaced_at: EpochMs;
}

/** One stored part of a version's ciphertext, as item_parts is of a file's. */
export interface ItemVersionPartsTable {
  version_id: string;
  n: number;
  size: number;
  blob_key: string;
  created_at: EpochMs;
}

/** Fixed-window counter; key is a SHA-256 hex, so the table holds no IPs or names. */
export interface RateLimitsTable {
  key: string;
  window_start: EpochMs;
  window_end: EpochMs;
  count: number;
}

/**
 * A user's key pins (migration 008), sealed in the browser under the account root key: the
 * server stores and returns them, never reads them. No row: version 0, nothing stored.
 */
export interface KeyPinsTable {
  user_id: string;
  /** Base64 AES-GCM ciphertext and tag. */
  sealed: string;
  /** Base64 of the 12-byte AES-GCM nonce. */
  nonce: string;
  /** 1 after the first write, one more with each. */
  version: number;
  updated_at: EpochMs;
}

/** An account whose shares a user does not want (migration 012, docs/protocol.md "Blocked accounts"). */
export interface ShareBlocksTable {
  user_id: string;
  blocked_id: string;
  created_at: EpochMs;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  items: ItemsTable;
  accesses: AccessesTable;
  links: LinksTable;
  uploads: UploadsTable;
  item_parts: ItemPartsTable;
  item_versions: ItemVersionsTable;
  item_version_parts: ItemVersionPartsTable;
  rate_limits: RateLimitsTable;
  key_pins: KeyPinsTable;
  share_blocks: ShareBlocksTable;
  account_recovery: AccountRecoveryTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
}

/** An account's recovery copy (migration 014): sealed under the phrase, opaque to the server. */
export interface AccountRecoveryTable {
  user_id: string;
  sealed: string;
  nonce: string;
  /** SHA-256 hex of recoveryAuth. */
  auth_hash: string;
  created_at: EpochMs;
}

/** An account's unused TOTP recovery codes (migration 015), one row each. */
export interface TotpRecoveryCodesTable {
  user_id: string;
  /** SHA-256 hex of user id, ':' and the normalised code: never the code. */
  code_hash: string;
  created_at: EpochMs;
}
