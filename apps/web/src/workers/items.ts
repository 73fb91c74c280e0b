/**
 * The keys of the items the signed-in user (or a link's holder) browses, inside the crypto worker
 * (DESIGN.md 2 and 4): every item key K stays here; the UI only ever sees decrypted names.
 *
 * Keys are held in one ring per browse scope (docs/protocol.md "Key rings"). K of a top-level item
 * of the own tree is unwrapped with the account root key R, K of any other item with its parent
 * folder's K from the same ring (docs/protocol.md "Items"). So an item the server planted, moved
 * or re-parented without holding the right W does not open: it comes back `decrypted: false`,
 * never trusted as a parent. Opened keys, names and mime types are memoised, so the 5-second
 * refresh of an unchanged folder costs no AES at all.
 */
import { extensionOf, MOVE_PROBLEM_TEXT } from '@sealbox/rules';
import {
  CryptoError,
  decryptMime,
  decryptName,
  encryptName,
  newItemId,
  newItemKey,
  plaintextSize,
  unwrapItemKey,
  wrapItemKey,
} from '@sealbox/crypto';
import type { AccountKeys } from '@sealbox/crypto';
import { type BrowseScope, checkedScope, scopeName } from '../model/browse-scope.ts';
import type { ItemView, NewFolderMetadata, OpenedListing, ServerItem } from '../model/items.ts';
import { loadAnyAccount } from './key-store.ts';
import { CodedError } from './coded-error.ts';

interface HeldKey {
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

/** Unwraps run in slices of this many, so 10,000 items neither serialise nor flood the engine. */
const BATCH = 1024;
/** A chain of parents longer than any tree the server accepts (20 levels are listed at most). */
const MAX_CHAIN = 10_000;

const itemKeyError = (code: string, message: string) => new CodedError('ItemKeyError', code, message);

function ringOf(scope: BrowseScope): Map<string, HeldKey> {
  const name = scopeName(checkedScope(scope));
  let ring = rings.get(name);
  if (!ring) {
    ring = new Map();
    rings.set(name, ring);
  }
  return ring;
}

function hold(raw: Uint8Array, wrappedBy: string | null, encryptedKey: string, keyNonce: string, parent?: HeldKey): HeldKey {
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
function isTrusted(entry: HeldKey): boolean {
  let at: HeldKey | undefined = entry;
  for (let depth = 0; at && depth < MAX_CHAIN; depth++, at = at.parent) if (!at.trusted) return false;
  return at === undefined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
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
function dropForgedRoots(itemId: string, raw: Uint8Array, keep: Map<string, HeldKey>): void {
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

function plainSize(item: ServerItem): number {
  if (item.isDirectory) return 0;
  try {
    return plaintextSize(item.size);
  } catch {
    return 0;
  }
}

async function openText(kind: 'name' | 'mime', entry: HeldKey, id: string, ciphertext: string, nonce: string): Promise<string> {
  // AES-GCM does not commit to its key: one ciphertext can open under two keys to two texts, so
  // the memo names the key it was opened with.
  const memo = `${kind}:${entry.serial}:${id}:${nonce}:${ciphertext}`;
  const known = texts.get(memo);
  if (known !== undefined) return known;
  const key = await entry.crypto;
  const text = kind === 'name' ? await decryptName(key, id, ciphertext, nonce) : await decryptMime(key, id, ciphertext, nonce);
  texts.set(memo, text);
  return text;
}

/**
 * Opens server items in `scope`'s ring (any order; parents may come in the same batch or be known
 * already): unwraps each K with its parent's K from the same ring, or with the account root key
 * for a top-level item of the caller's own tree (own scope only); a ring's roots keep the key
 * they were given. Decrypts name and mime. Items whose key does not unwrap, or unwraps to another
 * key than the one the ring holds for that id, come back with decrypted: false and name null —
 * never throw for one bad item. Keys stay in this worker.
 */
export async function openItems(scope: BrowseScope, items: ServerItem[]): Promise<ItemView[]> {
  const ring = ringOf(scope);
  const own = scope.kind === 'own';
  const byId = new Map(items.map((item) => [item.id, item]));
  const needsRoot = own && items.some((item) => item.parentId === null);
  const me = needsRoot ? await currentAccount() : account;

  // Parents before children: depth within this batch (items whose parent is outside it are 0).
  const depthMemo = new Map<string, number>();
  const depthOf = (item: ServerItem, seen = new Set<string>()): number => {
    const known = depthMemo.get(item.id);
    if (known !== undefined) return known;
    const parent = item.parentId === null ? undefined : byId.get(item.parentId);
    let depth = 0;
    if (parent && !seen.has(parent.id)) {
      seen.add(item.id);
      depth = depthOf(parent, seen) + 1;
    }
    depthMemo.set(item.id, depth);
    return depth;
  };
  const levels: ServerItem[][] = [];
  for (const item of byId.values()) {
    const depth = depthOf(item);
    const level = levels[depth] ?? [];
    level.push(item);
    levels[depth] = level;
  }

  const keyOk = new Set<string>();
  const openKey = async (item: ServerItem): Promise<void> => {
    const held = ring.get(item.id);
    // A root keeps the key it was given, wherever a listing places it.
    if (held?.outside) {
      keyOk.add(item.id);
      return;
    }
    const keyNonce = item.keyNonce;
    if (keyNonce === null) return;
    let wrapping: CryptoKey;
    let parent: HeldKey | undefined;
    if (item.parentId === null) {
      if (!own || !me || item.ownerId !== me.userId) return;
      wrapping = me.keys.rootKey;
    } else {
      parent = ring.get(item.parentId);
      // A parent in this batch that did not open cannot vouch for its children.
      if (!parent || (byId.has(item.parentId) && !keyOk.has(item.parentId))) return;
      wrapping = await parent.crypto;
    }
    if (held && held.wrappedBy === item.parentId && held.encryptedKey === item.encryptedKey && held.keyNonce === keyNonce) {
      if (parent) held.parent = parent;
      keyOk.add(item.id);
      return;
    }
    let raw: Uint8Array;
    try {
      raw = await unwrapItemKey(wrapping, item.id, item.encryptedKey, keyNonce);
    } catch {
      // Not openable under this parent: a planted or corrupted item. Keep any key known before
      // (it is still that item's K), but do not vouch for it in this listing.
      return;
    }
    if (held) {
      const same = sameBytes(held.raw, raw);
      raw.fill(0);
      // Another key for an id this ring holds: a forgery, refused (the held key stays).
      if (!same) return;
      // The same K under a new parent (a move): follow it there.
      Object.assign(held, { wrappedBy: item.parentId, encryptedKey: item.encryptedKey, keyNonce });
      if (parent) held.parent = parent;
      else delete held.parent;
    } else {
      ring.set(item.id, hold(raw, item.parentId, item.encryptedKey, keyNonce, parent));
      if (own) dropForgedRoots(item.id, raw, ring);
    }
    keyOk.add(item.id);
  };

  const view = async (item: ServerItem): Promise<ItemView> => {
    let name: string | null = null;
    let mimeType: string | null = null;
    let decrypted = false;
    const entry = keyOk.has(item.id) ? ring.get(item.id) : undefined;
    if (entry) {
      try {
        name = await openText('name', entry, item.id, item.encryptedFileName, item.nameNonce);
        if (!item.isDirectory && item.encryptedMimeType && item.mimeTypeNonce) {
          mimeType = await openText('mime', entry, item.id, item.encryptedMimeType, item.mimeTypeNonce);
        }
        decrypted = true;
      } catch {
        name = null;
        mimeType = null;
      }
    }
    return {
      id: item.id,
      name,
      mimeType,
      // As the file-type table reads it (@sealbox/rules); folders have none.
      extension: item.isDirectory ? '' : extensionOf(name),
      isDirectory: item.isDirectory,
      parentId: item.parentId,
      size: plainSize(item),
      cipherSize: item.size,
      createdAt: item.createdAt,
      modifiedAt: item.modifiedAt,
      ownerId: item.ownerId,
      uploaderId: item.uploaderId,
      editPermission: item.editPermission,
      decrypted,
      ...(entry && !isTrusted(entry) ? { untrusted: true as const } : {}),
    };
  };

  // Level by level (a parent's key before its children's); within a level every item runs its
  // whole chain (unwrap → import → decrypt name and mime) at once, in slices of BATCH, so the
  // engine's crypto threads stay busy instead of waiting at a barrier between steps.
  const views = new Map<string, ItemView>();
  for (const level of levels) {
    if (!level) continue;
    for (let i = 0; i < level.length; i += BATCH) {
      const slice = level.slice(i, i + BATCH);
      const done = await Promise.all(
        slice.map(async (item) => {
          await openKey(item);
          return view(item);
        }),
      );
      for (const v of done) views.set(v.id, v);
    }
  }
  return items.map((item) => views.get(item.id)!);
}

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

/** The folder a new item goes into must itself be open in `scope` (or null: the top level of the own tree). */
async function newFolder(scope: BrowseScope, parentId: string | null, name: string): Promise<NewFolderMetadata> {
  const trimmed = name.trim();
  if (trimmed === '') throw new CryptoError('BAD_INPUT', 'A folder name cannot be blank');
  const wrapping = await wrappingKeyFor(scope, parentId);
  const id = newItemId();
  const key = newItemKey();
  const [{ encryptedFileName, nameNonce }, { encryptedKey, keyNonce }] = await Promise.all([
    encryptName(key, id, trimmed),
    wrapItemKey(wrapping, id, key),
  ]);
  const ring = ringOf(scope);
  ring.set(id, hold(key, parentId, encryptedKey, keyNonce, parentId === null ? undefined : ring.get(parentId)));
  return { id, parentId, isDirectory: true, encryptedFileName, nameNonce, encryptedKey, keyNonce };
}

async function renameItem(scope: BrowseScope, id: string, name: string): Promise<{ encryptedName: string; nameNonce: string }> {
  const trimmed = name.trim();
  if (trimmed === '') throw new CryptoError('BAD_INPUT', 'A name cannot be blank');
  const entry = ringOf(scope).get(id);
  if (!entry) throw itemKeyError('NO_KEY', 'No decrypted key for this item');
  const { encryptedFileName, nameNonce } = await encryptName(await entry.crypto, id, trimmed);
  return { encryptedName: encryptedFileName, nameNonce };
}

/** Re-wraps K under the new parent's K (or R for the top level). The UI checks the move rules first. */
async function moveItem(
  scope: BrowseScope,
  id: string,
  newParentId: string | null,
): Promise<{ encryptedKey: string; keyNonce: string }> {
  if (newParentId === id) throw new CryptoError('BAD_INPUT', MOVE_PROBLEM_TEXT.itself);
  const raw = itemKey(scope, id);
  const wrapping = await wrappingKeyFor(scope, newParentId);
  return wrapItemKey(wrapping, id, raw);
}

/**
 * Parses a GET /api/file answer here rather than on the UI thread (a folder of 10,000 items is
 * megabytes of JSON; the bytes arrive transferred, not copied) and opens every item in it in
 * `scope`'s ring.
 */
async function openListing(scope: BrowseScope, body: ArrayBuffer): Promise<OpenedListing> {
  let parsed: { root?: ServerItem | null; files?: ServerItem[]; ancestors?: ServerItem[]; users?: OpenedListing['users'] };
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new CryptoError('BAD_INPUT', 'The listing is not JSON');
  }
  const ancestors = Array.isArray(parsed.ancestors) ? parsed.ancestors : [];
  const files = Array.isArray(parsed.files) ? parsed.files : [];
  const root = parsed.root ?? null;
  const views = await openItems(scope, [...ancestors, ...(root ? [root] : []), ...files]);
  return {
    ancestors: views.slice(0, ancestors.length),
    root: root ? views[ancestors.length]! : null,
    files: views.slice(ancestors.length + (root ? 1 : 0)),
    users: Array.isArray(parsed.users) ? parsed.users : [],
  };
}

/** The RPC surface the crypto worker exposes (spread into its methods object). */
export const itemMethods = {
  openItems,
  openListing,
  newFolder,
  renameItem,
  moveItem,
  forgetItems,
};
