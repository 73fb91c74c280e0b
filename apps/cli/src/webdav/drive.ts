/**
 * What the WebDAV bridge does to the drive, on the CLI's own tree (remote-tree.ts): paths looked
 * up through a short-lived cache of folder listings (cleared for a folder whenever the bridge
 * changes it, and by live events: live.ts), and every change made as `put`, `mv` and `rm` make
 * them. Copies are made by downloading and uploading again: each copy gets its own K.
 *
 * A file the bridge uploads goes into the cached listing at once, and the live event of that
 * upload (known by the item's id, taken before the upload starts) does not clear it: rclone
 * putting 10,000 files into one folder would otherwise list that folder 10,000 times.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newItemId } from '@sealbox/crypto';
import { nameKey } from '@sealbox/rules';
import { CliError, EXIT } from '../cli-error.ts';
import { type BatchResult, type Folder, type RemoteItem, type RemoteTree, isFolder, onlyNamed } from '../remote-tree.ts';
import { downloadFile } from '../transfers/download.ts';
import type { Progress } from '../transfers/progress.ts';
import { type Uploaded, uploadFile, uploadedItem } from '../transfers/upload.ts';

const QUIET: Progress = { add() {}, done() {} };

/** How long a listing is reused without a live event saying it changed. */
const LISTING_TTL_MS = 30_000;
/** How long the bridge waits for the live event of its own upload before it stops expecting it. */
const OWN_EVENT_MS = 60_000;
/** The events an upload of the bridge's own causes (its other changes clear the listings). */
const UPLOAD_KINDS: ReadonlySet<string> = new Set(['item.created', 'upload.completed', 'item.versions']);

export type Resource = Folder | RemoteItem;

/** A bulk call's refusal of the one item sent, as an error. */
function refused(results: readonly BatchResult[], exitCode: (typeof EXIT)[keyof typeof EXIT]): void {
  const [result] = results;
  if (result && !result.ok) throw new CliError(result.message, exitCode);
}

interface Fetching {
  items: Promise<RemoteItem[]>;
  learned: RemoteItem[];
}

/** `item` in `items`, in place of the entry of its id if there is one. */
function upsert(items: RemoteItem[], item: RemoteItem): void {
  const at = items.findIndex((known) => known.id === item.id);
  if (at === -1) items.push(item);
  else items[at] = item;
}

export class Drive {
  private readonly listings = new Map<string, { items: RemoteItem[]; at: number }>();
  /** The listings being fetched per folder, each with what the bridge uploaded there meanwhile. */
  private readonly fetching = new Map<string, Fetching[]>();
  /** Bumped whenever a folder's listing is forgotten: a listing fetched across a bump is not kept. */
  private readonly generations = new Map<string, number>();
  /** Changes to one name in one folder, one after the other (two PUTs of a name must not make two files). */
  private readonly busy = new Map<string, Promise<unknown>>();
  /** Items the bridge is uploading, until their live event comes: id → when to stop waiting. */
  private readonly ownUploads = new Map<string, number>();
  /**
   * Whether live events are coming in (live.ts): only then is a cached listing trusted to say a
   * name is free before an upload; without them each upload lists its folder afresh.
   */
  following = false;

  constructor(
    readonly tree: RemoteTree,
    private readonly userId: string,
  ) {}

  private keyOf(folder: Folder | string | null): string {
    const id = typeof folder === 'object' && folder !== null ? folder.id : folder;
    return id ?? 'top';
  }

  /** A folder's listing changed (here or, by a live event, elsewhere). */
  forget(folderId: string | null): void {
    const key = folderId ?? 'top';
    this.listings.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  /** Whether a live event is the one of the bridge's own upload (then its listing is current). */
  isOwnUpload(kind: string, itemId: string | undefined): boolean {
    if (itemId === undefined || !UPLOAD_KINDS.has(kind)) return false;
    const until = this.ownUploads.get(itemId);
    this.ownUploads.delete(itemId);
    return until !== undefined && until >= Date.now();
  }

  forgetAll(): void {
    for (const key of [...this.listings.keys()]) this.forget(key === 'top' ? null : key);
  }

  /**
   * A folder's items; `fresh` asks the server even when a listing is cached (before a change).
   * Requests for a folder being listed wait for that listing rather than start another.
   */
  async children(folder: Folder, fresh = false): Promise<RemoteItem[]> {
    const key = this.keyOf(folder);
    const cached = this.listings.get(key);
    if (!fresh && cached && Date.now() - cached.at < LISTING_TTL_MS) return cached.items;
    const running = this.fetching.get(key) ?? [];
    if (!fresh && running.length > 0) return running.at(-1)!.items;
    const generation = this.generations.get(key) ?? 0;
    const fetch: Fetching = { learned: [], items: Promise.resolve([]) };
    fetch.items = (async () => {
      const items = await this.tree.children(folder);
      // What the bridge uploaded meanwhile may have been committed after the server listed.
      for (const item of fetch.learned) upsert(items, item);
      if ((this.generations.get(key) ?? 0) === generation) this.listings.set(key, { items, at: Date.now() });
      return items;
    })().finally(() => {
      const left = (this.fetching.get(key) ?? []).filter((other) => other !== fetch);
      if (left.length > 0) this.fetching.set(key, left);
      else this.fetching.delete(key);
    });
    this.fetching.set(key, [...running, fetch]);
    return fetch.items;
  }

  /** The child named `name` (as the web app compares names); two of that name is a conflict. */
  async child(folder: Folder, name: string, fresh = false): Promise<RemoteItem | undefined> {
    return onlyNamed(await this.children(folder, fresh), name, `"${name}"`);
  }

  /** The resource at `segments`, or undefined (a missing one, or one below a file). */
  async lookup(segments: readonly string[]): Promise<Resource | undefined> {
    let at: Resource = this.tree.top;
    for (const name of segments) {
      if (!isFolder(at)) return undefined;
      const next: RemoteItem | undefined = await this.child(at, name);
      if (!next) return undefined;
      at = next;
    }
    return at;
  }

  /** A new folder, or the one of that name made meanwhile by another request. */
  async makeFolder(parent: Folder, name: string): Promise<Folder> {
    return this.oneAtATime(parent, name, async () => {
      const there = await this.child(parent, name, true);
      if (there && isFolder(there)) return there;
      if (there) throw new CliError(`A file named "${name}" is already there.`, EXIT.conflict);
      try {
        return await this.tree.makeFolder(parent, name);
      } finally {
        this.forget(parent.id);
      }
    });
  }

  /** Runs `change` after every earlier change to `name` in `folder` has ended. */
  private async oneAtATime<T>(folder: Folder, name: string, change: () => Promise<T>): Promise<T> {
    const key = `${this.keyOf(folder)}/${nameKey(name)}`;
    const before = this.busy.get(key) ?? Promise.resolve();
    const mine = before.catch(() => {}).then(change);
    this.busy.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.busy.get(key) === mine) this.busy.delete(key);
    }
  }

  /**
   * `localPath` as the file `name` in `parent`: a new version of a file of that name. The name is
   * looked up afresh unless live events keep the listing current (a listing cached without them
   * could miss a file made a moment ago, and a second one would be made).
   */
  async putFile(parent: Folder, name: string, localPath: string): Promise<void> {
    await this.oneAtATime(parent, name, async () => {
      const existing = await this.child(parent, name, !this.following);
      const id = existing?.id ?? newItemId();
      const now = Date.now();
      for (const [known, until] of this.ownUploads) if (until < now) this.ownUploads.delete(known);
      this.ownUploads.set(id, now + OWN_EVENT_MS);
      const target = { conn: this.tree.conn, userId: this.userId, parent, name, existing, id };
      let uploaded: Uploaded;
      try {
        uploaded = await uploadFile(target, localPath, () => QUIET, { resumable: false, partsInFlight: 1 });
      } catch (error) {
        this.ownUploads.delete(id);
        this.forget(parent.id);
        throw error;
      }
      this.learn(parent, uploadedItem(parent, name, uploaded, existing));
    });
  }

  /** Puts an item the bridge just made into its folder's listing: the one cached, and one being fetched. */
  private learn(parent: Folder, item: RemoteItem): void {
    const key = this.keyOf(parent);
    const cached = this.listings.get(key);
    if (cached) upsert(cached.items, item);
    for (const fetch of this.fetching.get(key) ?? []) fetch.learned.push(item);
  }

  /** To the trash (or for good where the server keeps none). */
  async remove(item: RemoteItem): Promise<void> {
    try {
      refused(await this.tree.remove([item.id]), EXIT.failed);
    } finally {
      this.forget(item.parentId);
      if (item.isDirectory) this.forget(item.id);
    }
  }

  /** Moves `item` into `parent` under `name` (K re-wrapped, the name re-sealed). */
  async move(item: RemoteItem, parent: Folder, name: string): Promise<void> {
    try {
      if (parent.id !== item.parentId) refused(await this.tree.moveInto([item], parent), EXIT.conflict);
      if (name !== item.name) await this.tree.rename(item, name);
    } finally {
      this.forget(item.parentId);
      this.forget(parent.id);
    }
  }

  /** A copy of `item` (a folder: with everything under it, unless `shallow`) as `name` in `parent`. */
  async copy(item: RemoteItem, parent: Folder, name: string, shallow = false): Promise<void> {
    if (isFolder(item)) {
      const made = await this.makeFolder(parent, name);
      if (shallow) return;
      for (const child of await this.children(item)) if (child.name !== null) await this.copy(child, made, child.name);
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'sealbox-dav-'));
    try {
      const local = join(dir, 'copy');
      await downloadFile(this.tree.conn, item, local, QUIET);
      await this.putFile(parent, name, local);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
