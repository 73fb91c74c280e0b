import type { SealboxEvent } from './event-bus.ts';

/**
 * Storage the accounts domain needs, in its own terms (no SQL, no column names). One adapter
 * over Kysely serves both dialects (infra/db/accounts/). Writes that others should hear about
 * take the event to publish: it goes out after the write commits, never if it fails.
 */

export type SortBy = 'name' | 'size' | 'created' | 'modified' | 'owner' | 'uploader' | 'extension';
export type SortOrder = 'asc' | 'desc';

export interface UserRecord {
  id: string;
  username: string;
  email: string | null;
  /** Bun.password (argon2id) hash of the login hash the browser sends. */
  loginVerifier: string;
  passwordSalt: string;
  /** KdfParams as JSON text. */
  kdf: string;
  salt: string;
  iv: string;
  encryptedPrivateKey: string;
  publicKey: string;
  signingPublicKey: string;
  gridView: boolean;
  sortBy: SortBy;
  sortOrder: SortOrder;
  avatarExtension: string | null;
  usedSpace: number;
  /** Bytes unfinished uploads in the user's tree still hold aside (docs/protocol.md "Quota"). */
  reservedSpace: number;
  totalSpace: number;
  totpSecret: string | null;
  totpEnabled: boolean;
  totpLastUsedStep: number | null;
  createdAt: number;
}

/** What the user chooses for how their files look; a new account starts on the defaults. */
export type UserPreferenceField = 'gridView' | 'sortBy' | 'sortOrder' | 'avatarExtension';
/** The space the server keeps count of; a new account has used none. */
export type SpaceUsedField = 'usedSpace' | 'reservedSpace';
/** Second-factor state; a new account has none. */
type TotpField = 'totpSecret' | 'totpEnabled' | 'totpLastUsedStep';

export type NewUser = Omit<UserRecord, UserPreferenceField | SpaceUsedField | TotpField>;

export type UserChanges = Partial<Pick<UserRecord, 'email' | UserPreferenceField | TotpField>>;

/** An account's password keys, replaced together (PUT /api/account/kdf). */
export type SealedAccountChanges = Pick<
  UserRecord,
  'loginVerifier' | 'passwordSalt' | 'kdf' | 'salt' | 'iv' | 'encryptedPrivateKey'
>;

/** Which unique rule a conflicting write broke. */
export type UserConflict = 'username' | 'email';

export interface UserRepository {
  /** Fails with DomainError CONFLICT whose detail names 'username' or 'email'. */
  insert(user: NewUser): Promise<void>;
  findById(id: string): Promise<UserRecord | undefined>;
  /** Case-insensitive exact match. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
  usernameTaken(username: string): Promise<boolean>;
  emailTaken(email: string): Promise<boolean>;
  /** Case-insensitive prefix match, sorted by lowercased username. */
  searchByPrefix(prefix: string, options: { excludeId: string; limit: number; offset: number }): Promise<UserRecord[]>;
  /** Returns the updated user, or undefined when it does not exist. CONFLICT as for insert. */
  update(id: string, changes: UserChanges, event?: SealboxEvent): Promise<UserRecord | undefined>;
  /**
   * Records a TOTP time step as used, only if it is later than the last one used: true when
   * this call claimed it. Atomic, so two requests racing with one code cannot both win.
   */
  claimTotpStep(
    id: string,
    step: number,
    changes?: UserChanges,
    event?: SealboxEvent,
    /** Stored in the same transaction, replacing any (TOTP's confirm: on, and its codes, together). */
    recoveryCodes?: { hashes: readonly string[]; now: number },
  ): Promise<boolean>;
  /**
   * Replaces the login verifier and the sealed account in one statement, only if the stored
   * verifier is still `expectedVerifier`: true when this call replaced them. Two devices
   * upgrading at once cannot interleave; the loser changes nothing.
   */
  replaceSealedAccount(id: string, expectedVerifier: string, changes: SealedAccountChanges): Promise<boolean>;
}

export interface SessionRecord {
  /** SHA-256 hex of the cookie token. */
  id: string;
  userId: string;
  totpPending: boolean;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export interface SessionRepository {
  /**
   * Inserts the session only while the user's login verifier is still `verifier`, in one
   * statement: a sign-in checked against a password that a change or a recovery replaced
   * meanwhile gets no session (false), so "every other session ends" holds for it too.
   */
  insert(session: SessionRecord, verifier: string): Promise<boolean>;
  findById(id: string): Promise<SessionRecord | undefined>;
  touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void>;
  listForUser(userId: string, now: number): Promise<SessionRecord[]>;
  /** Only deletes a session of this user; true when one was deleted. */
  deleteForUser(userId: string, id: string, event?: SealboxEvent): Promise<boolean>;
  delete(id: string, event?: SealboxEvent): Promise<boolean>;
  /** Deletes every session of the user but `keepId` (half logins too), each with `eventOf(id)`; how many. */
  deleteOthersForUser(userId: string, keepId: string, eventOf: (id: string) => SealboxEvent): Promise<number>;
  deleteExpired(now: number): Promise<number>;
}

export interface RateLimitCounter {
  /**
   * Counts one hit (or `amount`, for limits that weigh calls by the work they did) in the fixed
   * window containing `now` and returns the count so far in it (this one included) and when the
   * window ends. The key is opaque (a hash).
   */
  hit(key: string, windowMs: number, now: number, amount?: number): Promise<{ count: number; windowEnd: number }>;
  /** Takes one hit back (a login that turned out right does not count against the account). */
  refund(key: string, now: number): Promise<void>;
  /** Removes counters whose window ended before `now`. */
  sweep(now: number): Promise<number>;
}

/** A user's sealed key pins as stored; version 0 never has a row. */
export interface KeyPinsRecord {
  sealed: string;
  nonce: string;
  version: number;
}

export interface KeyPinsRepository {
  /** Undefined when nothing is stored (version 0). */
  find(userId: string): Promise<KeyPinsRecord | undefined>;
  /**
   * Stores the blob only if the stored version is still `expected` (0: no row yet), atomically:
   * returns the new version (expected + 1), or undefined when another write came first and
   * nothing was changed.
   */
  compareAndSet(
    userId: string,
    expected: number,
    pins: { sealed: string; nonce: string },
    now: number,
  ): Promise<number | undefined>;
}

export interface AccountRepositories {
  users: UserRepository;
  sessions: SessionRepository;
  rateLimits: RateLimitCounter;
  pins: KeyPinsRepository;
  recovery: RecoveryRepository;
  totpRecoveryCodes: TotpRecoveryCodeRepository;
}

/** An account's recovery copy (docs/protocol.md "Recovery phrase"). */
export interface RecoveryRecord {
  userId: string;
  /** The bundle under the phrase's recoveryWrap, and its nonce (base64). */
  sealed: string;
  nonce: string;
  /** SHA-256 hex of recoveryAuth. */
  authHash: string;
  createdAt: number;
}

export interface RecoveryRepository {
  find(userId: string): Promise<RecoveryRecord | undefined>;
  /** Sets or replaces the account's recovery copy: the phrase before stops working. */
  put(record: RecoveryRecord): Promise<void>;
  /**
   * A recovery, all or nothing, only while the stored authHash is still `authHash`: the login
   * verifier and the sealed account replaced, the recovery copy re-sealed, TOTP off (its recovery
   * codes deleted), and every session of the account deleted (`eventOf` each). False when the
   * phrase changed meanwhile.
   */
  recover(
    userId: string,
    authHash: string,
    changes: SealedAccountChanges & { recoverySealed: string; recoveryNonce: string },
    eventOf: (sessionId: string) => SealboxEvent,
  ): Promise<boolean>;
}

/**
 * An account's unused TOTP recovery codes (docs/protocol.md "TOTP recovery codes"), each only as
 * its hash. Turning TOTP off through UserRepository (update, claimTotpStep) deletes them too.
 */
export interface TotpRecoveryCodeRepository {
  /** Replaces every code of the account with these hashes, in one transaction: the codes before stop working. */
  replace(userId: string, hashes: string[], now: number, event?: SealboxEvent): Promise<void>;
  count(userId: string): Promise<number>;
  /**
   * Deletes the code with this hash and applies `changes` to the user, in one transaction: true
   * when this call deleted it. Atomic, so two requests racing with one code cannot both win.
   */
  consume(userId: string, hash: string, changes?: UserChanges, event?: SealboxEvent): Promise<boolean>;
}

/**
 * How usernames and emails compare: NFC, then Unicode lower case, computed in JavaScript so
 * both dialects agree ('Åsa', 'åsa' and a decomposed 'A\u030Asa' are one name).
 */
export function nameKey(value: string): string {
  return value.normalize('NFC').toLowerCase();
}
