/**
 * The items the signed-in user (or a link's holder) browses, opened inside the crypto worker
 * (docs/protocol.md "Items"): every item key K stays here, in the key ring of its browse scope
 * (key-rings.ts); the UI only ever sees decrypted names.
 *
 * K of a top-level item
 * of the own tree is unwrapped with the account root key R, K of any other item with its parent
 * folder's K from the same ring (docs/protocol.md "Items"). So an item the server planted, moved
 * or re-parented without holding the right W does not open: it comes back `decrypted: false`,
 * never trusted as a parent. Opened keys, names and mime types are memoised, so the 5-second
 * refresh of an unchanged folder costs no AES at all.
 */
import { extensionOf, MOVE_PROBLEM_TEXT } from '@sealbox/rules';
import { CryptoError, encryptName, newItemId, newItemKey, plaintextSize, unwrapItemKey, wrapItemKey } from '@sealbox/crypto';
import type { BrowseScope } from '../model/browse-scope.ts';
import type { ItemView, NewFolderMetadata, OpenedListing, ServerItem } from '../model/items.ts';
import {
  type HeldKey,
  currentAccount,
  dropForgedRoots,
  forgetItems,
  hold,
  isTrusted,
  itemKey,
  itemKeyError,
  knownAccount,
  openText,
  ringOf,
  sameBytes,
  wrappingKeyFor,
} from './key-rings.ts';

/** Unwraps run in slices of this many, so 10,000 items neither serialise nor flood the engine. */
const BATCH = 1024;

function plainSize(item: ServerItem): number {
  if (item.isDirectory) return 0;
  try {
    return plaintextSize(item.size);
  } catch {
    return 0;
  }
}

export interface OpenOptions {
  /** Hears how many items are opened, of how many, after each slice. */
  onProgress?: ((opened: number, total: number) => void) | undefined;
  /** Awaited before each slice: background work (the search index's build) gives way here. */
  beforeSlice?: () => Promise<void>;
  /**
   * Texts opened once and not shown again (the search index's build, a zip's gather): not kept
   * in the memo that spares an unchanged listing its decrypts (100,000 names would stay there).
   */
  once?: boolean;
}

/**
 * Opens server items in `scope`'s ring (any order; parents may come in the same batch or be known
 * already): unwraps each K with its parent's K from the same ring, or with the account root key
 * for a top-level item of the caller's own tree (own scope only); a ring's roots keep the key
 * they were given. Decrypts name and mime. Items whose key does not unwrap, or unwraps to another
 * key than the one the ring holds for that id, come back with decrypted: false and name null —
 * never throw for one bad item. Keys stay in this worker.
 */
export async function openItems(
  scope: BrowseScope,
  items: ServerItem[],
  { onProgress, beforeSlice, once = false }: OpenOptions = {},
): Promise<ItemView[]> {
  const ring = ringOf(scope);
  const own = scope.kind === 'own';
  const byId = new Map(items.map((item) => [item.id, item]));
  const needsRoot = own && items.some((item) => item.parentId === null);
  const me = needsRoot ? await currentAccount() : knownAccount();

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
        name = await openText('name', entry, item.id, item.encryptedFileName, item.nameNonce, !once);
        if (!item.isDirectory && item.encryptedMimeType && item.mimeTypeNonce) {
          mimeType = await openText('mime', entry, item.id, item.encryptedMimeType, item.mimeTypeNonce, !once);
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
      ...(item.shared === true ? { shared: true as const } : {}),
    };
  };

  // Level by level (a parent's key before its children's); within a level every item runs its
  // whole chain (unwrap → import → decrypt name and mime) at once, in slices of BATCH, so the
  // engine's crypto threads stay busy instead of waiting at a barrier between steps.
  const views = new Map<string, ItemView>();
  for (const level of levels) {
    if (!level) continue;
    for (let i = 0; i < level.length; i += BATCH) {
      await beforeSlice?.();
      const slice = level.slice(i, i + BATCH);
      const done = await Promise.all(
        slice.map(async (item) => {
          await openKey(item);
          return view(item);
        }),
      );
      for (const v of done) views.set(v.id, v);
      onProgress?.(views.size, byId.size);
    }
  }
  return items.map((item) => views.get(item.id)!);
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
 * moveItem for a selection, in one call from the page: each id's K wrapped for `newParentId`, or
 * null where it cannot be (no key here, or the folder itself), which the page reports as failed.
 */
async function moveItems(
  scope: BrowseScope,
  ids: readonly string[],
  newParentId: string | null,
): Promise<Array<{ id: string; encryptedKey: string; keyNonce: string } | null>> {
  return Promise.all(
    ids.map(async (id) => {
      try {
        return { id, ...(await moveItem(scope, id, newParentId)) };
      } catch {
        return null;
      }
    }),
  );
}

/**
 * Parses a GET /api/file answer here rather than on the UI thread (a folder of 10,000 items is
 * megabytes of JSON; the bytes arrive transferred, not copied) and opens every item in it in
 * `scope`'s ring. With `progress`, posts `{ opened, total }` there after each slice of BATCH
 * items (docs/web-files.md "Opening a large folder": the hint's percentage), then closes it.
 */
async function openListing(scope: BrowseScope, body: ArrayBuffer, progress?: MessagePort): Promise<OpenedListing> {
  try {
    return await parseAndOpen(scope, body, progress && ((opened, total) => progress.postMessage({ opened, total })));
  } finally {
    progress?.close();
  }
}

export async function parseAndOpen(
  scope: BrowseScope,
  body: ArrayBuffer,
  onProgress: ((opened: number, total: number) => void) | undefined,
): Promise<OpenedListing> {
  let parsed: { root?: ServerItem | null; files?: ServerItem[]; ancestors?: ServerItem[]; users?: OpenedListing['users'] };
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new CryptoError('BAD_INPUT', 'The listing is not JSON');
  }
  const ancestors = Array.isArray(parsed.ancestors) ? parsed.ancestors : [];
  const files = Array.isArray(parsed.files) ? parsed.files : [];
  const root = parsed.root ?? null;
  // The hint counts the folder's items: the ancestors and the folder itself are not among them.
  const extra = ancestors.length + (root ? 1 : 0);
  const progress = onProgress && ((opened: number, total: number) => onProgress(Math.max(0, opened - extra), total - extra));
  const views = await openItems(scope, [...ancestors, ...(root ? [root] : []), ...files], { onProgress: progress });
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
  moveItems,
  forgetItems,
};
