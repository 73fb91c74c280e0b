/**
 * The crypto worker: all key material lives here. The UI gets opaque handles
 * (README "Layout"), so a bug or an injected script on the page cannot read raw keys
 * off React state.
 */
import {
  type AccountKdf,
  type AccountKeys,
  type KdfUpgrade,
  type Registration,
  KDF_V2,
  changeAccountPassword,
  makeRecovery,
  RECOVERY_WORDS,
  phraseEntropy,
  recoverAccount,
  type RecoveryInput,
  type RecoveryReset,
  type RecoverySetup,
  checkAccountKdf,
  createAccount,
  CryptoError,
  decodeLinkKey,
  deriveLoginPassword,
  fingerprint,
  formatFingerprint,
  passwordKeys,
  recoveryKeys,
  sha256Hex,
  unlockAccount,
  upgradeAccount,
} from '@sealbox/crypto';
import { exposeRpc, type RpcEndpoint } from '../lib/worker-rpc.ts';
import { linkScope } from '../model/browse-scope.ts';
import { CodedError } from './coded-error.ts';
import { clearAccounts, loadAccount, loadAnyAccount, saveAccount } from './key-store.ts';
import { itemMethods } from './items.ts';
import { forgetItems, openRoot } from './key-rings.ts';
import { previewMethods } from './preview.ts';
import { forgetSearchIndex, searchIndexMethods } from './search-index/methods.ts';
import { sharingMethods } from './sharing.ts';
import { countCall } from './foreground.ts';
import { thumbnailMethods } from './thumbnails.ts';
import { transferMethods } from './transfers/index.ts';
import { clearRecords } from './upload-records.ts';

/** Opaque reference to a key held by this worker. */
export interface KeyHandle {
  handle: string;
}

const keys = new Map<string, Uint8Array>();

/** The signed-in account's keys, once unlocked (or loaded back from IndexedDB). */
let account: { userId: string; keys: AccountKeys } | undefined;

/** What the anonymous login lookup answers (GET /api/users/search/{name}?limit=1). */
export interface LoginLookup {
  passwordSalt: string;
  kdf: AccountKdf;
}

/**
 * The version-2 wrapping key `login` derived for this very password, passwordSalt and
 * parameters, if any (taken: it serves one unlock or re-seal); else nothing, and the caller
 * derives it again.
 */
function takeCachedKey(password: string, sealed: SealedAccountInput): { wrappingKey?: CryptoKey } {
  const cached = pendingV2;
  pendingV2 = undefined;
  const kdf = checkAccountKdf(sealed.kdf);
  const same =
    kdf.version === 2 &&
    cached !== undefined &&
    cached.password === password &&
    (sealed.passwordSalt === undefined || cached.passwordSalt === sealed.passwordSalt) &&
    cached.kdf === JSON.stringify(kdf);
  return same ? { wrappingKey: cached.wrappingKey } : {};
}

/**
 * What POST /api/login answers, plus the user id the keys are stored under and the lookup's
 * passwordSalt (version 2 derives the wrapping key from it).
 */
export interface SealedAccountInput {
  userId: string;
  passwordSalt?: string;
  salt: string;
  iv: string;
  encryptedPrivateKey: string;
  kdf: AccountKdf;
  publicKey: string;
  signingPublicKey: string;
}

/**
 * Version 2 makes the login password and the wrapping key from one argon2id: `login` keeps the
 * key for the `unlock` that follows, so a sign-in pays for argon2id once. Used only when the
 * password, passwordSalt and parameters are the very same; dropped at unlock and logout.
 */
let pendingV2: { password: string; passwordSalt: string; kdf: string; wrappingKey: CryptoKey } | undefined;
const PENDING_V2_MS = 5 * 60_000;

let warming: Promise<void> | undefined;

async function accountFor(userId?: string): Promise<{ userId: string; keys: AccountKeys } | undefined> {
  if (account && (userId === undefined || account.userId === userId)) return account;
  const stored = userId === undefined ? await loadAnyAccount() : await loadAccount(userId);
  if (stored) account = { userId: stored.userId, keys: stored.keys };
  return stored ? account : undefined;
}

function holdKey(key: Uint8Array): KeyHandle {
  const handle = crypto.randomUUID();
  keys.set(handle, key);
  return { handle };
}

export const cryptoMethods = {
  /** The key tree of the user's items (items.ts). */
  ...itemMethods,

  /** Uploads and downloads (transfers/). */
  ...transferMethods,

  /** Key pins, grants, link fragments and the items shared with this user (sharing.ts). */
  ...sharingMethods,

  /** Grid thumbnails of images and the start of videos (thumbnails.ts). */
  ...thumbnailMethods,

  /** The previewer's whole decrypted file (preview.ts). */
  ...previewMethods,

  /** The sealed local search index of the own tree (search-index/). */
  ...searchIndexMethods,

  sha256Hex(bytes: Uint8Array): Promise<string> {
    return sha256Hex(bytes);
  },

  /** A user's fingerprint (both public keys, base64 SPKI) in the grouped form shown to people. */
  async fingerprint(publicKey: string, signingPublicKey: string): Promise<string> {
    return formatFingerprint(await fingerprint(publicKey, signingPublicKey));
  },

  /**
   * Decodes a share link's URL fragment (without '#') and keeps the item key here.
   * Rejects with code BAD_LINK_KEY unless it decodes to exactly 32 bytes.
   */
  openLinkKey(fragment: string): KeyHandle {
    return holdKey(decodeLinkKey(fragment));
  },

  /**
   * Uses a link key held here (`openLinkKey`) as the K of the linked item `itemId` (its id from
   * GET /api/shared/{linkId}), in that link's own key ring: listings and downloads through the
   * link open under it, nothing else does (docs/protocol.md "Key rings"). Refused with
   * KEY_CONFLICT when this worker already holds another key for that item (the user's own, or one
   * reached from its parent): the server named an item the fragment's key is not the key of.
   */
  useLinkKey(handle: string, linkId: string, itemId: string): void {
    const raw = keys.get(handle);
    if (!raw) throw new CryptoError('BAD_INPUT', 'Unknown link key');
    if (!openRoot(linkScope(linkId), itemId, raw, 'link'))
      throw new CodedError('ItemKeyError', 'KEY_CONFLICT', 'The link names an item its key does not open');
  },

  /**
   * Compiles hash-wasm's argon2id and lets the engine tier it up, so the first sign-in
   * click does not pay for it. Runs the real parameters on a throwaway input once per worker.
   */
  warm(): Promise<void> {
    warming ??= deriveLoginPassword('sealbox-warm-up', 'AAAAAAAAAAAAAAAAAAAAAA==', KDF_V2).then(
      () => undefined,
      () => undefined,
    );
    return warming;
  },

  /**
   * New account keys for `password`, under version-2 password keys (docs/protocol.md "Account").
   * Returns the registration payload (public keys, the sealed bundle and the login password);
   * the secrets are dropped here, to be opened again by `unlock` at the first sign-in.
   */
  async register(password: string): Promise<Registration> {
    const { registration } = await createAccount(password, KDF_V2);
    return registration;
  },

  /**
   * The login password the server verifies, under the account's version. KDF parameters are
   * checked first: below the minimum, above the ceiling or of an unknown version, nothing is
   * derived.
   */
  async login(password: string, lookup: LoginLookup): Promise<string> {
    pendingV2 = undefined;
    const kdf = checkAccountKdf(lookup.kdf);
    if (kdf.version !== 2) return deriveLoginPassword(password, lookup.passwordSalt, kdf);
    const derived = await passwordKeys(password, { passwordSalt: lookup.passwordSalt, salt: '', kdf });
    const entry = { password, passwordSalt: lookup.passwordSalt, kdf: JSON.stringify(kdf), wrappingKey: derived.wrappingKey };
    pendingV2 = entry;
    // A login hash made for something else (a TOTP change) is never followed by an unlock: drop
    // it when a sign-in waiting for its TOTP code would have expired anyway.
    setTimeout(() => {
      if (pendingV2 === entry) pendingV2 = undefined;
    }, PENDING_V2_MS);
    return derived.loginPassword;
  },

  /**
   * Opens the sealed account with the password and keeps the keys, here and in IndexedDB
   * (replacing whatever account was stored before). Rejects with DECRYPT_FAILED on a wrong
   * password and KEY_CHANGED when the server's public keys are not the sealed ones.
   * A version-1 account also comes back re-sealed under version 2 (`upgrade`: the body of
   * PUT /api/account/kdf, less the current login password); null when there is nothing to do.
   */
  async unlock(password: string, sealed: SealedAccountInput): Promise<{ fingerprint: string; upgrade: KdfUpgrade | null }> {
    const kdf = checkAccountKdf(sealed.kdf);
    let unlocked: AccountKeys;
    let upgrade: KdfUpgrade | null = null;
    if (kdf.version === 2) {
      unlocked = await unlockAccount(password, sealed, takeCachedKey(password, sealed));
    } else {
      ({ keys: unlocked, upgrade } = await upgradeAccount(password, sealed, KDF_V2));
    }
    await saveAccount(sealed.userId, unlocked);
    account = { userId: sealed.userId, keys: unlocked };
    return { fingerprint: formatFingerprint(await fingerprint(unlocked.publicKey, unlocked.signingPublicKey)), upgrade };
  },

  /**
   * Profile's Change password (docs/protocol.md "Password change"): the same bundle re-sealed
   * under version-2 keys of `newPassword` (fresh passwordSalt, salt and iv), opened once more to
   * check; the body of PUT /api/account/password, less the current login password. The keys this
   * browser holds stay as they are: they are the same keys.
   */
  async changePassword(currentPassword: string, newPassword: string, sealed: SealedAccountInput): Promise<KdfUpgrade> {
    const current = await accountFor(sealed.userId);
    const cached = takeCachedKey(currentPassword, sealed);
    const { keys: opened, change } = await changeAccountPassword(currentPassword, sealed, newPassword, KDF_V2, cached);
    if (current && opened.publicKey !== current.keys.publicKey) {
      throw new CryptoError('KEY_CHANGED', 'the sealed account holds other keys than this browser unlocked');
    }
    return change;
  },

  /**
   * A new recovery phrase for the signed-in account (docs/protocol.md "Recovery phrase"): the
   * words, to show once, and the copy of the bundle sealed under them with its proof, for
   * PUT /api/account/recovery. Nothing of it is kept here.
   */
  async makeRecovery(password: string, sealed: SealedAccountInput): Promise<RecoverySetup> {
    return makeRecovery(password, sealed, sealed.userId, takeCachedKey(password, sealed));
  },

  /** What is wrong with a typed phrase (word count, an unknown word, the checksum), or null. */
  phraseProblem(phrase: string): string | null {
    try {
      phraseEntropy(phrase).fill(0);
      return null;
    } catch (error) {
      if (error instanceof CryptoError) return error.message;
      throw error;
    }
  },

  /** Up to `limit` words of the recovery list that start with `prefix` (the phrase field's suggestions). */
  recoveryWords(prefix: string, limit = 6): string[] {
    const start = prefix.trim().toLowerCase();
    if (start === '') return [];
    return RECOVERY_WORDS.filter((word) => word.startsWith(start)).slice(0, limit);
  },

  /** recoveryAuth of a typed phrase, to ask the server for the account's recovery copy. */
  async recoveryAuth(phrase: string): Promise<string> {
    const entropy = phraseEntropy(phrase);
    try {
      return (await recoveryKeys(entropy)).recoveryAuth;
    } finally {
      entropy.fill(0);
    }
  },

  /**
   * Forgot password: opens the recovery copy with the phrase (its public keys checked against the
   * server's) and seals the same keys under `newPassword`; the body of POST /api/recovery/reset,
   * less the username. The keys are not kept: the user signs in with the new password next.
   */
  async recover(phrase: string, copy: RecoveryInput, newPassword: string): Promise<RecoveryReset> {
    return (await recoverAccount(phrase, copy, newPassword, KDF_V2)).reset;
  },

  /** Whether this browser holds the unlocked keys of `userId` (memory or IndexedDB). */
  async hasKeys(userId: string): Promise<boolean> {
    try {
      return (await accountFor(userId)) !== undefined;
    } catch {
      return false;
    }
  },

  /** Logout: every account key, item key, unfinished upload and the search index leave memory and IndexedDB. */
  async forgetKeys(): Promise<void> {
    account = undefined;
    pendingV2 = undefined;
    forgetItems();
    await Promise.all([clearAccounts(), clearRecords(), forgetSearchIndex()]);
  },

  /** The signed-in user's own fingerprint, from the sealed bundle's public keys; null without keys. */
  async myFingerprint(): Promise<string | null> {
    const current = await accountFor();
    if (!current) return null;
    return formatFingerprint(await fingerprint(current.keys.publicKey, current.keys.signingPublicKey));
  },

  forgetKey(handle: string): void {
    keys.get(handle)?.fill(0);
    keys.delete(handle);
  },
};

export type CryptoMethods = typeof cryptoMethods;

// Counted, so the search index's build gives way to what the page waits on (foreground.ts).
exposeRpc(cryptoMethods, self as unknown as RpcEndpoint, countCall);
