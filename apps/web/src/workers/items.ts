/**
 * The key tree of the signed-in user's items, inside the crypto worker (DESIGN.md 2 and 4):
 * every item key K stays here, keyed by item id; the UI only ever sees decrypted names.
 *
 * K of a top-level item is unwrapped with the account root key R, K of any other item with its
 * parent folder's K (docs/protocol.md "Items"). So an item the server planted, moved or re-parented
 * without holding the right W does not open: it comes back `decrypted: false`, never trusted as
 * a parent. Opened keys, names and mime types are memoised by their ciphertext, so the 5-second
 * refresh of an unchanged folder costs no AES at all.
 */
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
import type { ItemView, NewFolderMetadata, OpenedListing, ServerItem } from '../model/items.ts';
import { loadAnyAccount } from './key-store.ts';
import { CodedError } from './coded-error.ts';

interface HeldKey {
  raw: Uint8Array;
  /** Imported once, non-extractable: every later unwrap/decrypt under this K skips the import. */
  crypto: Promise<CryptoKey>;
  /** What it was unwrapped from, so an unchanged listing skips the unwrap. */
  wrappedBy: string | null;
  encryptedKey: string;
  keyNonce: string;
  /**
   * False when this K came, directly or through its parents, from a share grant that did not
   * verify (DESIGN 4): such a key is shown with a warning and never wraps a new key.
   */
  trusted: boolean;
}

const held = new Map<string, HeldKey>();
/**
 * Items whose K came from outside the tree: a share link's fragment (DESIGN 4: the linked item's
 * K itself) or a grant RSA-wrapped to this user. Their K is not unwrapped from a parent, so a
 * listing that reaches them keeps the key they were opened with.
 */
const roots = new Set<string>();
/** Decrypted texts by item id + ciphertext + nonce (names and mime types). */
const texts = new Map<string, string>();
let account: { userId: string; keys: AccountKeys } | undefined;

/** Unwraps run in slices of this many, so 10,000 items neither serialise nor flood the engine. */
const BATCH = 1024;

const itemKeyError = (code: string, message: string) => new CodedError('ItemKeyError', code, message);

function hold(raw: Uint8Array, wrappedBy: string | null, encryptedKey: string, keyNonce: string, trusted = true): HeldKey {
  return {
    raw,
    crypto: crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']),
    wrappedBy,
    encryptedKey,
    keyNonce,
    trusted,
  };
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

export function extensionOf(name: string | null, isDirectory: boolean): string {
  if (!name || isDirectory) return '';
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  return name.slice(dot + 1).toLowerCase();
}

function plainSize(item: ServerItem): number {
  if (item.isDirectory) return 0;
  try {
    return plaintextSize(item.size);
  } catch {
    return 0;
  }
}

async function openText(kind: 'name' | 'mime', key: CryptoKey, id: string, ciphertext: string, nonce: string): Promise<string> {
  const memo = `${kind}:${id}:${nonce}:${ciphertext}`;
  const known = texts.get(memo);
  if (known !== undefined) return known;
  const text = kind === 'name' ? await decryptName(key, id, ciphertext, nonce) : await decryptMime(key, id, ciphertext, nonce);
  texts.set(memo, text);
  return text;
}

/**
 * Opens server items (any order; parents may come in the same batch or be known already):
 * unwraps each K with its parent's K (or the account root key when parentId is null and the item
 * is the caller's own), decrypts name and mime. Items whose key does not unwrap come back with
 * decrypted: false and name null — never throw for one bad item. Keys stay in this worker,
 * keyed by item id.
 */
export async function openItems(items: ServerItem[]): Promise<ItemView[]> {
  const byId = new Map(items.map((item) => [item.id, item]));
  const needsRoot = items.some((item) => item.parentId === null);
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
    if (roots.has(item.id) && held.get(item.id)?.wrappedBy?.startsWith(OUTSIDE)) {
      keyOk.add(item.id);
      return;
    }
    if (item.keyNonce === null) return;
    let wrapping: CryptoKey | undefined;
    let trusted = true;
    if (item.parentId === null) {
      if (!me || item.ownerId !== me.userId) return;
      wrapping = me.keys.rootKey;
    } else {
      const parentKey = held.get(item.parentId);
      // A parent in this batch that did not open cannot vouch for its children.
      if (!parentKey || (byId.has(item.parentId) && !keyOk.has(item.parentId))) return;
      wrapping = await parentKey.crypto;
      trusted = parentKey.trusted;
    }
    const wrappedBy = item.parentId;
    const cached = held.get(item.id);
    if (
      cached &&
      cached.wrappedBy === wrappedBy &&
      cached.encryptedKey === item.encryptedKey &&
      cached.keyNonce === item.keyNonce &&
      cached.trusted === trusted
    ) {
      keyOk.add(item.id);
      return;
    }
    try {
      const raw = await unwrapItemKey(wrapping, item.id, item.encryptedKey, item.keyNonce);
      held.set(item.id, hold(raw, wrappedBy, item.encryptedKey, item.keyNonce, trusted));
      keyOk.add(item.id);
    } catch {
      // Not openable under this parent: a planted or corrupted item. Keep any key known before
      // (it is still that item's K), but do not vouch for it in this listing.
    }
  };

  const view = async (item: ServerItem): Promise<ItemView> => {
    let name: string | null = null;
    let mimeType: string | null = null;
    let decrypted = false;
    const entry = keyOk.has(item.id) ? held.get(item.id) : undefined;
    if (entry) {
      try {
        const key = await entry.crypto;
        name = await openText('name', key, item.id, item.encryptedFileName, item.nameNonce);
        if (!item.isDirectory && item.encryptedMimeType && item.mimeTypeNonce) {
          mimeType = await openText('mime', key, item.id, item.encryptedMimeType, item.mimeTypeNonce);
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
      extension: extensionOf(name, item.isDirectory),
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
      ...(entry && !entry.trusted ? { untrusted: true as const } : {}),
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

/** K of an opened item (throws CryptoError-like Error with code 'NO_KEY' when unknown). */
export function itemKey(id: string): Uint8Array {
  const entry = held.get(id);
  if (!entry) throw itemKeyError('NO_KEY', 'No decrypted key for this item');
  return entry.raw;
}

/** The key that wraps children of `parentId`: that folder's K, or the account root key for null. */
export async function wrappingKeyFor(parentId: string | null): Promise<Uint8Array | CryptoKey> {
  if (parentId === null) {
    const me = await currentAccount();
    if (!me) throw itemKeyError('NO_KEY', 'The account keys are not unlocked in this browser');
    return me.keys.rootKey;
  }
  const entry = held.get(parentId);
  if (!entry) throw itemKeyError('NO_KEY', 'No decrypted key for this folder');
  if (!entry.trusted) throw itemKeyError('UNVERIFIED', 'This folder was shared by a grant that did not verify');
  return entry.crypto;
}

/** What a root's key was "unwrapped" from: a link's fragment or a grant, never a parent. */
const OUTSIDE = 'outside:';

/**
 * Holds a key that came from outside the tree as the K of `itemId` (its name and mime are
 * sealed under it; its children's keys are wrapped by it): a share link's fragment, or a
 * grant's unwrapped key (`trusted` false when its signature did not verify). A wrong key
 * simply opens nothing.
 */
export function openRoot(itemId: string, raw: Uint8Array, source: 'link' | 'grant', trusted = true): void {
  held.get(itemId)?.raw.fill(0);
  held.set(itemId, hold(new Uint8Array(raw), `${OUTSIDE}${source}`, '', '', trusted));
  roots.add(itemId);
}

/** Whether a root opened by a grant is still held with this trust (the 5-second refresh skips RSA). */
export function heldRoot(itemId: string): { trusted: boolean } | undefined {
  const entry = held.get(itemId);
  return roots.has(itemId) && entry?.wrappedBy === `${OUTSIDE}grant` ? { trusted: entry.trusted } : undefined;
}

export function forgetItems(): void {
  for (const entry of held.values()) entry.raw.fill(0);
  held.clear();
  roots.clear();
  texts.clear();
  account = undefined;
}

/** The id of the folder a new item goes into must itself be open (or null for the top level). */
async function newFolder(parentId: string | null, name: string): Promise<NewFolderMetadata> {
  const trimmed = name.trim();
  if (trimmed === '') throw new CryptoError('BAD_INPUT', 'A folder name cannot be blank');
  const wrapping = await wrappingKeyFor(parentId);
  const id = newItemId();
  const key = newItemKey();
  const [{ encryptedFileName, nameNonce }, { encryptedKey, keyNonce }] = await Promise.all([
    encryptName(key, id, trimmed),
    wrapItemKey(wrapping, id, key),
  ]);
  held.set(id, hold(key, parentId, encryptedKey, keyNonce));
  return { id, parentId, isDirectory: true, encryptedFileName, nameNonce, encryptedKey, keyNonce };
}

async function renameItem(id: string, name: string): Promise<{ encryptedName: string; nameNonce: string }> {
  const trimmed = name.trim();
  if (trimmed === '') throw new CryptoError('BAD_INPUT', 'A name cannot be blank');
  const entry = held.get(id);
  if (!entry) throw itemKeyError('NO_KEY', 'No decrypted key for this item');
  const { encryptedFileName, nameNonce } = await encryptName(await entry.crypto, id, trimmed);
  return { encryptedName: encryptedFileName, nameNonce };
}

/** Re-wraps K under the new parent's K (or R for the top level). The UI checks SPEC 5's rules first. */
async function moveItem(id: string, newParentId: string | null): Promise<{ encryptedKey: string; keyNonce: string }> {
  if (newParentId === id) throw new CryptoError('BAD_INPUT', 'An item cannot be moved into itself');
  const raw = itemKey(id);
  const wrapping = await wrappingKeyFor(newParentId);
  return wrapItemKey(wrapping, id, raw);
}

/**
 * Parses a GET /api/file answer here rather than on the UI thread (a folder of 10,000 items is
 * megabytes of JSON; the bytes arrive transferred, not copied) and opens every item in it.
 */
async function openListing(body: ArrayBuffer): Promise<OpenedListing> {
  let parsed: { root?: ServerItem | null; files?: ServerItem[]; ancestors?: ServerItem[]; users?: OpenedListing['users'] };
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new CryptoError('BAD_INPUT', 'The listing is not JSON');
  }
  const ancestors = Array.isArray(parsed.ancestors) ? parsed.ancestors : [];
  const files = Array.isArray(parsed.files) ? parsed.files : [];
  const root = parsed.root ?? null;
  const views = await openItems([...ancestors, ...(root ? [root] : []), ...files]);
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
