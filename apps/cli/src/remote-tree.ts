/**
 * The user's own tree as the CLI sees it (docs/cli.md "Remote paths"): listings opened from the
 * account root key R down (docs/protocol.md "Items" and "Key rings", the own ring only), names as
 * the user sees them, and paths resolved segment by segment. An item the server lists under a
 * folder it does not belong to, or whose key or name does not open under that folder's key, is
 * never taken for one that did: it shows as undecryptable and no path reaches it.
 */
import { decryptName, encryptName, newItemId, newItemKey, plaintextSize, unwrapItemKey, wrapItemKey } from '@sealbox/crypto';
import { nameKey, nameProblem } from '@sealbox/rules';
import type { ItemView } from '@sealbox/server/files-view';
import { CliError, EXIT } from './cli-error.ts';
import { type Connection, answer, postForm } from './client.ts';

/** One listing page; a folder of more is read page after page. */
const PAGE = 1000;

export interface RemoteItem {
  id: string;
  parentId: string | null;
  isDirectory: boolean;
  /** Null: its key or name did not open (shown, never resolved). */
  name: string | null;
  /** Plaintext bytes (0 for a folder). */
  size: number;
  createdAt: number;
  modifiedAt: number;
  /** K, for opening what is inside (null when it did not open). */
  key: Uint8Array | null;
  /** A file's content nonce, as the server lists it. */
  fileNonce: string | null;
}

/** A folder to list: the top level (R wraps its items) or an opened folder. */
export type Folder = { id: null; key: CryptoKey } | OpenFolder;
/** A folder item whose key opened. */
export type OpenFolder = RemoteItem & { isDirectory: true; key: Uint8Array };

/** Path segments of `path` ('' and '/' are the top level; '.' is skipped, '..' goes up). */
export function pathSegments(path: string): string[] {
  const segments: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  return segments;
}

export const showPath = (segments: readonly string[]) => `/${segments.join('/')}`;

export class RemoteTree {
  /**
   * `top`: where paths start: the own tree's top level (R), or the folder a link opens (its K from
   * the link's fragment).
   */
  constructor(
    readonly conn: Connection,
    readonly top: Folder,
  ) {}

  /** Every item directly in `folder`, opened, in the server's order. */
  async children(folder: Folder): Promise<RemoteItem[]> {
    const items: RemoteItem[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const query = {
        depth: 1,
        limit: PAGE,
        offset,
        ...(folder.id ? { id: folder.id } : {}),
        ...(this.conn.linkId ? { linkId: this.conn.linkId } : {}),
      };
      const page = await answer(this.conn.api.api.file.get({ query }), this.conn.server);
      if (page instanceof Response) throw new CliError('The server answered a listing that is not JSON.', EXIT.failed);
      const { files } = page;
      items.push(...(await Promise.all(files.map((item) => this.open(item, folder)))));
      if (files.length < PAGE) return items;
    }
  }

  private async open(item: ItemView, folder: Folder): Promise<RemoteItem> {
    const base = factsOf(item);
    // Only the folder asked for may wrap its children: another parent claimed is not opened.
    if (item.parentId !== folder.id || item.keyNonce === null) return { ...base, name: null, key: null };
    try {
      const key = await unwrapItemKey(folder.key, item.id, item.encryptedKey, item.keyNonce);
      return { ...base, key, name: await decryptName(key, item.id, item.encryptedFileName, item.nameNonce) };
    } catch {
      return { ...base, name: null, key: null };
    }
  }

  /**
   * The one child of `folder` named `name` (compared as the web app compares names: trimmed, NFC,
   * any case), or undefined; two of that name is an error.
   */
  async child(folder: Folder, name: string, where: readonly string[]): Promise<RemoteItem | undefined> {
    return onlyNamed(await this.children(folder), name, showPath([...where, name]));
  }

  /** The folder or file at `path`; the top level is a Folder with id null. */
  async resolve(path: string): Promise<Folder | RemoteItem> {
    const segments = pathSegments(path);
    let at: Folder | RemoteItem = this.top;
    for (const [i, name] of segments.entries()) {
      if (!isFolder(at)) throw new CliError(`${showPath(segments.slice(0, i))} is a file, not a folder.`, EXIT.notFound);
      const next = await this.child(at, name, segments.slice(0, i));
      if (!next) throw new CliError(`${showPath(segments.slice(0, i + 1))}: no such file or folder.`, EXIT.notFound);
      at = next;
    }
    return at;
  }

  /** The item at `path`: never the top level itself. */
  async item(path: string): Promise<RemoteItem> {
    const at = await this.resolve(path);
    if (at.id === null) throw new CliError('That is the whole drive: name an item in it.', EXIT.usage);
    return at as RemoteItem;
  }

  /** The folder at `path`, made with every missing folder on the way (`mkdir -p`). */
  async makeFolders(path: string): Promise<{ folder: Folder; made: string[] }> {
    const segments = pathSegments(path);
    let at: Folder = this.top;
    const made: string[] = [];
    for (const [i, name] of segments.entries()) {
      const where = segments.slice(0, i);
      const next = await this.child(at, name, where);
      if (next && !isFolder(next)) throw new CliError(`${showPath([...where, name])} is a file, not a folder.`, EXIT.conflict);
      if (next) {
        at = next;
        continue;
      }
      at = await this.makeFolder(at, name);
      made.push(showPath([...where, name]));
    }
    return { folder: at, made };
  }

  /** Moves `items` (their keys opened) into `target`, each K wrapped for it, through the bulk call. */
  async moveInto(items: readonly RemoteItem[], target: Folder): Promise<BatchResult[]> {
    const entries = await Promise.all(
      items.map(async (item) => {
        if (!item.key) throw new CliError(`${item.name ?? item.id}: its key did not open.`, EXIT.integrity);
        return { id: item.id, ...(await wrapItemKey(target.key, item.id, item.key)) };
      }),
    );
    const { api, server } = this.conn;
    return inBatches(
      entries,
      async (chunk) => (await answer(api.api.file.batch.move.post({ parentId: target.id, items: chunk }), server)).results,
    );
  }

  /** Deletes `ids` through the bulk call: to the owner's trash, or for good where it keeps none. */
  async remove(ids: readonly string[]): Promise<BatchResult[]> {
    const { api, server } = this.conn;
    return inBatches(ids, async (chunk) => (await answer(api.api.file.batch.delete.post({ ids: chunk }), server)).results);
  }

  /** Renames `item` (its key opened): the new name sealed under K for its id. */
  async rename(item: RemoteItem, name: string): Promise<void> {
    if (!item.key) throw new CliError(`${item.name ?? item.id}: its key did not open.`, EXIT.integrity);
    const sealed = await encryptName(item.key, item.id, name);
    const body = { type: 'rename' as const, encryptedName: sealed.encryptedFileName, nameNonce: sealed.nameNonce };
    await answer(this.conn.api.api.file({ id: item.id }).put(body), this.conn.server);
  }

  /** A new folder `name` in `parent`, sealed as the web app's worker seals one (docs/protocol.md "Items"). */
  async makeFolder(parent: Folder, name: string): Promise<OpenFolder> {
    const problem = nameProblem(name);
    if (problem) throw new CliError(`${name}: ${problem}`, EXIT.usage);
    const id = newItemId();
    const key = newItemKey();
    const [sealedName, wrapped] = await Promise.all([encryptName(key, id, name), wrapItemKey(parent.key, id, key)]);
    const metadata = { id, parentId: parent.id, isDirectory: true, ...sealedName, ...wrapped };
    await postForm(this.conn, '/api/upload', { metadata: JSON.stringify(metadata) });
    const now = Date.now();
    return { id, parentId: parent.id, isDirectory: true, name, size: 0, createdAt: now, modifiedAt: now, key, fileNonce: null };
  }
}

/** What a listed item is, before its key and name are opened. */
function factsOf(item: ItemView) {
  return {
    id: item.id,
    parentId: item.parentId,
    isDirectory: item.isDirectory,
    size: item.isDirectory ? 0 : sizeOf(item.size),
    createdAt: item.createdAt,
    modifiedAt: item.modifiedAt,
    fileNonce: item.fileNonce,
  };
}

/**
 * An item whose K came from outside the own tree: a link's key (docs/protocol.md "Share links")
 * or a grant's (shared.ts). Taken as that item's only when its name opens under the key for its
 * id; otherwise undecryptable.
 */
export async function openOutsideRoot(item: ItemView, key: Uint8Array | null): Promise<RemoteItem> {
  const base = factsOf(item);
  if (!key) return { ...base, key: null, name: null };
  try {
    return { ...base, key, name: await decryptName(key, item.id, item.encryptedFileName, item.nameNonce) };
  } catch {
    return { ...base, key: null, name: null };
  }
}

/**
 * Each item's name as names are compared, worked out once: a folder of 10,000 files put one by
 * one is searched 10,000 times (put, the WebDAV bridge), and normalising every name each time
 * made garbage by the million.
 */
const nameKeys = new WeakMap<RemoteItem, string>();
function keyOfName(item: RemoteItem, name: string): string {
  let key = nameKeys.get(item);
  if (key === undefined) {
    key = nameKey(name);
    nameKeys.set(item, key);
  }
  return key;
}

/**
 * The one of `items` named `name`, compared as the web app compares names (trimmed, NFC, any
 * case), or undefined. The server cannot keep two of one name apart (it cannot read them), so two
 * is an error naming both ids rather than a guess; `shown` is the path for that error.
 */
export function onlyNamed(items: readonly RemoteItem[], name: string, shown: string): RemoteItem | undefined {
  const key = nameKey(name);
  const found = items.filter((item) => item.name !== null && keyOfName(item, item.name) === key);
  if (found.length > 1) {
    const ids = found.map((item) => item.id).join(', ');
    throw new CliError(`${shown} names ${found.length} items (ids ${ids}): rename one in the web app.`, EXIT.conflict);
  }
  return found[0];
}

/** Items a bulk call takes at most (docs/protocol.md "Batch changes"). */
const BATCH_MAX = 5000;

/** One item's answer in a bulk call. */
export type BatchResult = { id: string; ok: true } | { id: string; ok: false; message: string };

/** Sends `entries` BATCH_MAX at a time; answers every item's result. */
async function inBatches<T>(entries: readonly T[], send: (chunk: T[]) => Promise<BatchResult[]>): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  for (let i = 0; i < entries.length; i += BATCH_MAX) results.push(...(await send(entries.slice(i, i + BATCH_MAX))));
  return results;
}

export function isFolder(item: Folder | RemoteItem): item is Folder {
  return item.id === null || (item.isDirectory && item.key !== null);
}

/** A file's plaintext size from its ciphertext size; a size no file can have counts as 0. */
function sizeOf(cipherSize: number): number {
  try {
    return plaintextSize(cipherSize);
  } catch {
    return 0;
  }
}
