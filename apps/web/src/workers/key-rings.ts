/**
 * The key rings of the crypto worker (docs/protocol.md "Key rings"): one ring of item keys per
 * browse scope (own tree, shared with me, each link), the rules that keep a key from outside the
 * tree (a grant, a link fragment) from ever standing in for another, the signed-in account whose
 * root key opens the own ring, and the texts opened under each key. items.ts opens listings into
 * these rings; sharing.ts and the link page hand them the keys that came from outside.
 */
import { type AccountKeys, decryptMime, decryptName } from '@sealbox/crypto';
import { type BrowseScope, checkedScope, scopeName } from '../model/browse-scope.ts';
import { CodedError } from './coded-error.ts';
import { loadAnyAccount } from './key-store.ts';

export interface HeldKey {
  raw: Uint8Array;
  /** Imported once, non-extractable: every later unwrap/decrypt under this K skips the import. */
  crypto: Promise<CryptoKey>;
  /** Names this key in the text memo, so a text opened under one key is never shown under another. */
  serial: number;
  /** The parent whose K it was unwrapped with (null: the account root key), so an unchanged listing skips the unwrap. */
  wrappedBy: string | null;
  encryptedKey: string;
  keyNonce: string;
  /** The key it was unwrapped with; undefined for the account root key and for a ring's roots. */
  parent?: HeldKey;
  /** Set on a ring's roots: where their K came from (a grant or a link fragment, never a parent). */
  outside?: 'link' | 'grant';
  /**
   * False for a root whose grant did not verify (docs/protocol.md "Sharing with a user"), and for
   * a key dropped from its ring: such a key, and every key opened under it, is shown with a
   * warning and never wraps a new key.
   */
  trusted: boolean;
}

/**
 * One ring of keys per browse scope (model/browse-scope.ts; docs/protocol.md "Key rings"), each
 * keyed by item id. The own ring opens from the account root key down; the shared ring from the
 * grants' keys down; a link's ring from its fragment's key down. A key never moves between rings
 * and is never replaced within one: an item has one K for good (a move re-wraps the same K), so a
 * second, different key for an id is a forgery and is refused.
 */
const rings = new Map<string, Map<string, HeldKey>>();
/** Decrypted texts by key serial + item id + ciphertext + nonce (names and mime types). */
const texts = new Map<string, string>();
let account: { userId: string; keys: AccountKeys } | undefined;
let serials = 0;

/** A chain of parents longer than any tree the server accepts (20 levels are listed at most). */
const MAX_CHAIN = 10_000;

export const itemKeyError = (code: string, message: string) => new CodedError('ItemKeyError', code, message);

export function ringOf(scope: BrowseScope): Map<string, HeldKey> {
  const name = scopeName(checkedScope(scope));
  let ring = rings.get(name);
  if (!ring) {
    ring = new Map();
    rings.set(name, ring);
  }
  return ring;
}

export function hold(
  raw: Uint8Array,
  wrappedBy: string | null,
  encryptedKey: string,
  keyNonce: string,
  parent?: HeldKey,
): HeldKey {
  return {
    raw,
    crypto: crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']),
    serial: ++serials,
    wrappedBy,
    encryptedKey,
    keyNonce,
    ...(parent ? { parent } : {}),
    trusted: true,
  };
}

/** Whether a key and every key above it in its ring are trusted (a root's grant verified, nothing dropped). */
export function isTrusted(entry: HeldKey): boolean {
  let at: HeldKey | undefined = entry;
  for (let depth = 0; at && depth < MAX_CHAIN; depth++, at = at.parent) if (!at.trusted) return false;
  return at === undefined;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Drops the root `itemId` of a ring other than `keep` whose key is not `raw`: the own tree (or
 * another root) opened the item with its real K, so what a grant or link claimed for it was
 * forged. What was opened under the dropped key stops being trusted with it.
 */
export function dropForgedRoots(itemId: string, raw: Uint8Array, keep: Map<string, HeldKey>): void {
  for (const ring of rings.values()) {
    if (ring === keep) continue;
    const entry = ring.get(itemId);
    if (entry?.outside && !sameBytes(entry.raw, raw)) {
      entry.trusted = false;
      ring.delete(itemId);
    }
  }
}

/**
 * The signed-in account (from the IndexedDB the crypto worker keeps). Read again on every call
 * that needs R, so a logout in this or another tab (which deletes the record) stops its use;
 * a different user than before drops every item key held for the previous one.
 */
/** The account last read (no IndexedDB read): for a listing that needs no root key. */
export function knownAccount(): { userId: string; keys: AccountKeys } | undefined {
  return account;
}

export async function currentAccount(): Promise<{ userId: string; keys: AccountKeys } | undefined> {
  const stored = await loadAnyAccount().catch(() => undefined);
  if (!stored) {
    if (account) forgetItems();
    return undefined;
  }
  if (account && account.userId !== stored.userId) forgetItems();
  account = { userId: stored.userId, keys: stored.keys };
  return account;
}

/**
 * The most texts the memo keeps: a folder of 10,000 items shown and refreshed is 20,000 (names and
 * mime types). Past it the oldest go first; one found again moves to the end.
 */
export const MEMO_TEXTS = 50_000;

/** Opens a name or mime type under `entry`'s K; `remember` keeps it in the memo (and finds it there). */
export async function openText(
  kind: 'name' | 'mime',
  entry: HeldKey,
  id: string,
  ciphertext: string,
  nonce: string,
  remember = true,
): Promise<string> {
  // AES-GCM does not commit to its key: one ciphertext can open under two keys to two texts, so
  // the memo names the key it was opened with.
  const memo = memoKey(kind, entry, id, ciphertext, nonce);
  const known = texts.get(memo);
  if (known !== undefined) {
    texts.delete(memo);
    texts.set(memo, known);
    return known;
  }
  const key = await entry.crypto;
  const text = kind === 'name' ? await decryptName(key, id, ciphertext, nonce) : await decryptMime(key, id, ciphertext, nonce);
  if (!remember) return text;
  texts.set(memo, text);
  if (texts.size > MEMO_TEXTS) texts.delete(texts.keys().next().value!);
  return text;
}

function memoKey(kind: 'name' | 'mime', entry: HeldKey, id: string, ciphertext: string, nonce: string): string {
  return `${kind}:${entry.serial}:${id}:${nonce}:${ciphertext}`;
}

/** How many texts the memo holds, and whether it holds one (tests). */
export const memoSize = () => texts.size;
export const memoHas = (...text: Parameters<typeof memoKey>) => texts.has(memoKey(...text));

/** K of an item opened in `scope`'s ring (throws NO_KEY when that ring does not hold it). */
export function itemKey(scope: BrowseScope, id: string): Uint8Array {
  const entry = ringOf(scope).get(id);
  if (!entry) throw itemKeyError('NO_KEY', 'No decrypted key for this item');
  return entry.raw;
}

/**
 * The key that wraps children of `parentId` in `scope`: that folder's K from the scope's ring, or
 * the account root key for the top level of the user's own tree (no other scope has one).
 */
export async function wrappingKeyFor(scope: BrowseScope, parentId: string | null): Promise<Uint8Array | CryptoKey> {
  if (parentId === null) {
    if (checkedScope(scope).kind !== 'own') throw itemKeyError('NO_KEY', 'Only your own files have a top level');
    const me = await currentAccount();
    if (!me) throw itemKeyError('NO_KEY', 'The account keys are not unlocked in this browser');
    return me.keys.rootKey;
  }
  const entry = ringOf(scope).get(parentId);
  if (!entry) throw itemKeyError('NO_KEY', 'No decrypted key for this folder');
  if (!isTrusted(entry)) throw itemKeyError('UNVERIFIED', 'This folder was shared by a grant that did not verify');
  return entry.crypto;
}

/**
 * Holds a key that came from outside the tree as the K of the root `itemId` of `scope`'s ring (its
 * name and mime are sealed under it; its children's keys are wrapped by it): a share link's
 * fragment, or a grant's unwrapped key (`trusted` false when its signature did not verify).
 * Refused (false, nothing held) when any ring already holds another key for `itemId`: the item
 * is the user's own, or was reached from its parent, and keeps the key it opened with
 * (docs/protocol.md "Key rings"). A wrong key that nothing contradicts simply opens nothing.
 */
export function openRoot(scope: BrowseScope, itemId: string, raw: Uint8Array, source: 'link' | 'grant', trusted = true): boolean {
  const ring = ringOf(scope);
  for (const other of rings.values()) {
    const entry = other.get(itemId);
    if (entry && !sameBytes(entry.raw, raw)) return false;
  }
  const held = ring.get(itemId);
  if (held) {
    // Reached from its parent in this ring already, with this very key: it stays as it opened.
    if (held.outside) held.trusted = trusted;
    return true;
  }
  const root = hold(new Uint8Array(raw), `${OUTSIDE}${source}`, '', '');
  root.outside = source;
  root.trusted = trusted;
  ring.set(itemId, root);
  return true;
}

/** What a root's key was "unwrapped" from: a link's fragment or a grant, never a parent. */
const OUTSIDE = 'outside:';

/** Whether `scope`'s ring holds `itemId` as a root given by a grant, and with what trust (the 5-second refresh skips RSA). */
export function heldRoot(scope: BrowseScope, itemId: string): { trusted: boolean } | undefined {
  const entry = ringOf(scope).get(itemId);
  return entry?.outside === 'grant' ? { trusted: entry.trusted } : undefined;
}

/** Lets go of the root `itemId` of `scope`'s ring (a grant refused now); what opened under it is no longer trusted. */
export function dropRoot(scope: BrowseScope, itemId: string): void {
  const ring = ringOf(scope);
  const entry = ring.get(itemId);
  if (!entry?.outside) return;
  entry.trusted = false;
  ring.delete(itemId);
}

export function forgetItems(): void {
  for (const ring of rings.values()) {
    for (const entry of ring.values()) {
      entry.raw.fill(0);
      entry.trusted = false;
    }
  }
  rings.clear();
  texts.clear();
  account = undefined;
}
