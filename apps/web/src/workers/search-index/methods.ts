/**
 * The sealed local search index (docs/web-files.md "Search"), held in the crypto worker: built
 * from the own tree's listing, opened here, sealed under the index key (seal.ts) into IndexedDB
 * (store.ts), read back once per session, matched in memory (memory.ts), and kept current by
 * `tree.changed` events and the listings the user opens. The page gets matches, never the key.
 */
import { answered } from '../../lib/api-client.ts';
import { OWN_SCOPE, SHARED_SCOPE } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import { ALL_ITEMS, TREE_DEPTH } from '../../model/listing-limits.ts';
import { api, bytes } from '../api.ts';
import { CodedError } from '../coded-error.ts';
import { parseAndOpen } from '../items.ts';
import { keyOnDemand } from '../key-on-demand.ts';
import { currentAccount } from '../key-rings.ts';
import { nextTask } from '../next-task.ts';
import { AfterPause } from './after-pause.ts';
import { type Found, MemoryIndex } from './memory.ts';
import { NamesIndex } from './names.ts';
import { type IndexSection, IndexOpenError, openIndex, openNames, sealIndex, sealNames } from './seal.ts';
import { deleteIndex, readIndex, readNames, writeIndex } from './store.ts';
import { type WalkTimes, walkOwnTree } from './tree-walk.ts';
import { bridge, type TreeChange } from './versions.ts';

/** How long changes wait before the index is sealed and written again (many events, one write). */
const PERSIST_DELAY_MS = 300;

export type IndexState =
  | { state: 'unavailable' }
  | { state: 'none' }
  | {
      state: 'ready';
      treeVersion: number;
      names: number;
      shared: boolean;
      /** Only the names record is open yet: searches answer `partial` until `searchIndexOpenWhole`. */
      early?: true;
      phases?: BuildPhases;
      opened?: OpenPhases;
    };

/**
 * Where the opening of a stored index went, in ms (for the benches): the names record (read and
 * opened), the pause in the searches before the chunks, then the chunks read, decrypted and
 * parsed, held (the slices' own time), the shared section.
 */
export interface OpenPhases {
  early: number;
  pause: number;
  read: number;
  open: number;
  hold: number;
  shared: number;
}

/** Where a build's time went, in ms (for bench/search): the tree's walk, then sealing and writing. */
export interface BuildPhases extends WalkTimes {
  seal: number;
  write: number;
}

interface Live {
  userId: string;
  key: CryptoKey;
  treeVersion: number;
  memory: MemoryIndex;
  /** What is shared with the user, as /shared last listed it (undefined: never yet). */
  shared?: MemoryIndex | undefined;
  /** How it was read back from IndexedDB, when it was (not built): asked for after the opening too. */
  opened?: OpenPhases;
}

let live: Live | undefined;
/** The own section's names record, searchable while `whole` opens the rest. */
let early: { userId: string; names: NamesIndex; state: IndexState; rest: AfterPause } | undefined;
/** The stored index's whole opening this session (settled or not); every change and full search waits for it. */
let whole: Promise<IndexState> | undefined;
/** `searchIndexOpen`'s answer under way (the names record's, or the whole index's when it has none). */
let answering: Promise<IndexState> | undefined;
let building: Promise<IndexState> | undefined;
/** Bumped at logout: a build or read under way for the session that ended keeps nothing. */
let epoch = 0;
let persistTimer: ReturnType<typeof setTimeout> | undefined;

const indexError = (code: string, message: string) => new CodedError('SearchIndexError', code, message);

/** The signed-in account and its index key; undefined for keys stored before the key existed. */
async function owner(): Promise<{ userId: string; key: CryptoKey } | undefined> {
  const account = await currentAccount();
  const key = account?.keys.searchIndexKey;
  return account && key ? { userId: account.userId, key } : undefined;
}

function stateOf(index: Live | undefined): IndexState {
  if (!index) return { state: 'none' };
  const state = { treeVersion: index.treeVersion, names: index.memory.size, shared: index.shared !== undefined };
  return { state: 'ready', ...state, ...(index.opened ? { opened: index.opened } : {}) };
}

/**
 * After the names record answered, the chunks wait for a pause in the searches, counted from the
 * page's ask for them (`searchIndexOpenWhole`): parsing 100,000 entries, and collecting their
 * garbage, would hold up the first searches typed. Whatever in the worker needs the whole index
 * (`opened`) starts them at once, and so does a logout; the page's own changes wait in its queue
 * behind its ask, so in practice the pause, or its limit, starts them.
 */
const REST_QUIET_MS = 300;
const REST_AT_MOST_MS = 2000;
/** Below this many names the chunks open in a few ms: at once, so results can be opened at once. */
const REST_PAUSE_FROM = 10_000;
/** Entries held between two yields to the worker's other messages (a few ms of work). */
const HOLD_SLICE = 5000;

/**
 * The index in memory for the current account, else read from IndexedDB; 'none' when there is
 * none that opens. When the stored index has a names record, answers `early` once that is open
 * (a first search need not wait for 100,000 entries to parse) and opens the rest after it.
 */
async function searchIndexOpen(): Promise<IndexState> {
  const me = await owner();
  if (!me) return { state: 'unavailable' };
  if (live?.userId === me.userId) return stateOf(live);
  // Asked again while the rest opens (the page warmed it before its first paint): the names answer.
  if (whole) return early?.userId === me.userId ? early.state : whole;
  answering ??= openStored(me).finally(() => {
    answering = undefined;
  });
  return answering;
}

/** The names record first when there is one (its state `early`), the whole index after it (`whole`). */
async function openStored(me: { userId: string; key: CryptoKey }): Promise<IndexState> {
  live = undefined;
  const started = epoch;
  const t0 = performance.now();
  const names = await openNamesRecord(me);
  if (epoch !== started) return { state: 'none' };
  if (names === null) {
    // Nothing stored (as after a sign-in): the chunks are not read to find that out again.
    whole = Promise.resolve({ state: 'none' });
    return whole;
  }
  const namesAt = performance.now();
  const rest = new AfterPause(REST_QUIET_MS, REST_AT_MOST_MS);
  if (!names || names.index.size < REST_PAUSE_FROM) rest.now();
  const opening = rest.done.then(() => {
    if (epoch !== started) return { state: 'none' } satisfies IndexState;
    const waited = { early: names ? namesAt - t0 : 0, pause: performance.now() - namesAt };
    return openWhole(me, started, waited);
  });
  // Kept once settled (until logout), so `searchIndexOpenWhole` answers this opening however late
  // it asks, and a failed one reads 'none' (built again) rather than being opened once more.
  whole = opening;
  void opening
    .finally(() => {
      if (whole === opening) early = undefined;
    })
    .catch(() => undefined);
  if (!names) return opening;
  const state: IndexState = {
    state: 'ready',
    treeVersion: names.treeVersion,
    names: names.index.size,
    shared: false,
    early: true,
  };
  early = { userId: me.userId, names: names.index, state, rest };
  return state;
}

/**
 * The own section's names record, opened; undefined when there is none that opens (the chunks
 * still may), null when nothing is stored for the account (no meta: no chunks either).
 */
async function openNamesRecord(me: { userId: string; key: CryptoKey }) {
  const stored = await readNames(me.userId, 'own').catch(() => 'unreadable' as const);
  if (stored === undefined) return null;
  if (stored === 'unreadable' || !stored.names) return undefined;
  try {
    const columns = await openNames(me.key, me.userId, 'own', stored.meta, stored.names);
    return { treeVersion: stored.meta.treeVersion, index: new NamesIndex(me.userId, columns) };
  } catch (error) {
    if (error instanceof IndexOpenError) return undefined;
    throw error;
  }
}

/** What the whole opening came to (the names record alone is not enough to change the index). */
async function searchIndexOpenWhole(): Promise<IndexState> {
  await answering?.catch(() => undefined);
  early?.rest.touch();
  return whole ?? stateOf(live);
}

/** Waits for an opening under way, so what changes the index changes the whole of it. */
async function opened(): Promise<void> {
  await answering?.catch(() => undefined);
  early?.rest.now();
  await whole?.catch(() => undefined);
}

/** The stored index whole: the own section's chunks, then what is shared with the user. */
async function openWhole(
  me: { userId: string; key: CryptoKey },
  started: number,
  waited: Pick<OpenPhases, 'early' | 'pause'>,
): Promise<IndexState> {
  let at = performance.now();
  const stored = await readIndex(me.userId, 'own').catch(() => undefined);
  if (!stored) return { state: 'none' };
  const opened: OpenPhases = { ...waited, read: performance.now() - at, open: 0, hold: 0, shared: 0 };
  try {
    at = performance.now();
    const entries = await openIndex(me.key, me.userId, 'own', stored.meta, stored.chunks);
    opened.open = performance.now() - at;
    // A slice at a time, so that a search typed meanwhile is answered from the names between them.
    const memory = new MemoryIndex(me.userId);
    for (let from = 0; from < entries.length; from += HOLD_SLICE) {
      at = performance.now();
      memory.take(entries.slice(from, from + HOLD_SLICE));
      opened.hold += performance.now() - at;
      await nextTask();
      if (epoch !== started) return { state: 'none' };
    }
    at = performance.now();
    const shared = await openShared(me);
    opened.shared = performance.now() - at;
    if (epoch !== started) return { state: 'none' };
    live = { ...me, treeVersion: stored.meta.treeVersion, memory, shared, opened };
  } catch (error) {
    // Tampered with, cut short or not this account's: built again from the server.
    if (!(error instanceof IndexOpenError)) throw error;
    return { state: 'none' };
  }
  return stateOf(live);
}

/** The stored section of what is shared with the user; undefined when there is none that opens (/shared builds it again). */
async function openShared(me: { userId: string; key: CryptoKey }): Promise<MemoryIndex | undefined> {
  const stored = await readIndex(me.userId, 'shared').catch(() => undefined);
  if (!stored) return undefined;
  const entries = await openIndex(me.key, me.userId, 'shared', stored.meta, stored.chunks).catch(() => undefined);
  return entries && new MemoryIndex(me.userId, entries, true);
}

async function serverTreeVersion(): Promise<number> {
  const { data, status } = await answered(api.api.file['tree-version'].get());
  if (!data) throw indexError(`HTTP_${status}`, `Tree version failed (${status})`);
  return data.treeVersion;
}

/** GET /api/file in the own scope (`id` null: the top level), opened here. */
async function listOwn(id: string | null, depth: number) {
  const response = await bytes.listing({ depth, limit: ALL_ITEMS, offset: 0, ...(id ? { id } : {}) });
  if (!response.ok) throw indexError(`HTTP_${response.status}`, `Listing failed (${response.status})`);
  return parseAndOpen(OWN_SCOPE, await response.arrayBuffer(), undefined);
}

/**
 * Builds the index from the whole own tree. The version is read before the tree, so the tree is
 * at least that new; events after it are applied on top (a refetched folder is the same
 * whatever it held), never missed. `progress` hears `{ opened, total }` as names are opened.
 */
function searchIndexBuild(progress?: MessagePort): Promise<IndexState> {
  building ??= (async () => {
    try {
      await opened();
      const started = epoch;
      const me = await owner();
      if (!me) return { state: 'unavailable' } as const;
      const treeVersion = await serverTreeVersion();
      const phases: Partial<BuildPhases> = {};
      const onProgress = progress && ((opened: number, total: number) => progress.postMessage({ opened, total }));
      const tree = await walkOwnTree(onProgress, phases);
      if (epoch !== started) return { state: 'none' } as const;
      const memory = new MemoryIndex(me.userId);
      memory.add(tree);
      // What is shared with the user does not follow the own tree: it stays as it was.
      live = { ...me, treeVersion, memory, shared: live?.userId === me.userId ? live.shared : undefined };
      await persist(false, phases);
      return { ...stateOf(live), phases: phases as BuildPhases };
    } finally {
      building = undefined;
      progress?.close();
    }
  })();
  return building;
}

/** Seals the whole index and writes it (after PERSIST_DELAY_MS when `later`). */
async function persist(later = false, phases?: Partial<BuildPhases>): Promise<void> {
  clearTimeout(persistTimer);
  if (later) {
    persistTimer = setTimeout(() => void persist().catch(() => {}), PERSIST_DELAY_MS);
    return;
  }
  const index = live;
  if (!index) return;
  const started = performance.now();
  index.memory.prune();
  const entries = index.memory.entries();
  const { meta, chunks } = await sealIndex(index.key, index.userId, 'own', index.treeVersion, entries);
  const names = await sealNames(index.key, index.userId, 'own', meta, entries);
  // Signed out (or another account) meanwhile: nothing is written for a session that ended.
  if (live !== index) return;
  const sealed = performance.now();
  await writeIndex(index.userId, 'own', meta, chunks, names);
  if (phases) Object.assign(phases, { seal: sealed - started, write: performance.now() - sealed });
}

/**
 * The folder's children are now `items`; folders new to the index bring their subtrees (a folder
 * restored from the trash, which the index may never have held). A folder the index does not hold
 * is in the trash or being deleted: nothing under it is searched, so it is left alone.
 */
async function takeChildren(index: Live, parentId: string | null, items: readonly ItemView[]): Promise<boolean> {
  if (parentId !== null && !index.memory.has(parentId)) return false;
  const { fresh, changed } = index.memory.replaceChildren(parentId, items);
  for (const folderId of fresh) index.memory.add((await listOwn(folderId, TREE_DEPTH)).files);
  return changed;
}

async function refreshFolders(index: Live, parentIds: ReadonlyArray<string | null>): Promise<void> {
  // Folders above first: one that left the tree drops out of the index before its own turn.
  const ordered = [...parentIds].sort((a, b) => index.memory.depthOf(a) - index.memory.depthOf(b));
  for (const parentId of ordered) {
    if (parentId !== null && !index.memory.has(parentId)) continue;
    let items: ItemView[];
    try {
      items = (await listOwn(parentId, 1)).files;
    } catch (error) {
      // Gone since (deleted for good): nothing is under it any more.
      if (!(error instanceof CodedError && error.code === 'HTTP_404')) throw error;
      items = [];
    }
    await takeChildren(index, parentId, items);
  }
}

/**
 * A `tree.changed` event (versions.ts): applied when it is next in line (the folders it names
 * refetched). False when the index cannot be brought to it: the caller rebuilds.
 */
async function searchIndexApply(event: TreeChange): Promise<boolean> {
  await opened();
  const index = live;
  if (!index) return false;
  const verdict = bridge(index.treeVersion, event);
  if (verdict !== 'apply') return verdict === 'included';
  await refreshFolders(index, event.parentIds ?? []);
  // Rebuilt or signed out meanwhile, or another event got there first.
  if (live !== index || bridge(index.treeVersion, event) !== 'apply')
    return live === index && index.treeVersion >= event.treeVersion;
  index.treeVersion = event.treeVersion;
  await persist(true);
  return true;
}

/**
 * A listing the user opened (own scope, the whole folder): its names are the freshest there are.
 * Answers whether the index changed (an unchanged folder, the 5 s poll's, writes nothing).
 */
async function searchIndexNoteListing(parentId: string | null, items: ItemView[]): Promise<boolean> {
  await opened();
  const index = live;
  if (!index || !(await takeChildren(index, parentId, items))) return false;
  await persist(true);
  return true;
}

/**
 * /shared was opened: what is shared with the user is now `items` (the shared items and every
 * shared folder's subtree, opened with their grants), sealed as its own section.
 */
async function searchIndexSetShared(items: ItemView[]): Promise<void> {
  await opened();
  const index = live;
  if (!index) return;
  const shared = new MemoryIndex(index.userId, [], true);
  shared.add(items);
  index.shared = shared;
  const { meta, chunks } = await sealIndex(index.key, index.userId, 'shared', 0, shared.entries());
  if (live !== index || index.shared !== shared) return;
  await writeIndex(index.userId, 'shared', meta, chunks, undefined);
}

/**
 * The first `max` matches in the own tree or in what is shared, how many there are, and the
 * folders above them; `partial` from the names record while the whole index is still opening.
 */
async function searchIndexFind(query: string, max: number, section: IndexSection = 'own'): Promise<Found> {
  if (section === 'own' && !live && early) {
    early.rest.touch();
    return early.names.find(query, max);
  }
  await opened();
  const memory = section === 'own' ? live?.memory : live?.shared;
  if (!memory) throw indexError('NO_INDEX', 'The search index is not open');
  return memory.find(query, max);
}

/**
 * Before a result is opened (the previewer, a download): its K, which this tab may never have
 * listed (the index answered without the tree), opened with the folders above it.
 */
async function searchIndexOpenKey(section: IndexSection, itemId: string): Promise<void> {
  // The ring's own key, not a copy: it stays there for the previewer.
  await keyOnDemand(section === 'own' ? OWN_SCOPE : SHARED_SCOPE, itemId, indexError);
}

/** Logout: the index leaves memory, and every index database this browser holds is deleted. */
export async function forgetSearchIndex(): Promise<void> {
  clearTimeout(persistTimer);
  epoch++;
  // An opening waiting for a pause settles ('none'), so nothing waits on it for ever.
  early?.rest.now();
  const userId = live?.userId;
  live = undefined;
  early = undefined;
  whole = undefined;
  const names = new Set<string>(userId ? [userId] : []);
  const listed = (await indexedDB.databases?.().catch(() => [])) ?? [];
  for (const db of listed) if (db.name?.startsWith('sealbox-search-')) names.add(db.name.slice('sealbox-search-'.length));
  await Promise.all([...names].map(deleteIndex));
}

export const searchIndexMethods = {
  searchIndexOpen,
  searchIndexOpenWhole,
  searchIndexBuild,
  searchIndexApply,
  searchIndexNoteListing,
  searchIndexSetShared,
  searchIndexFind,
  searchIndexOpenKey,
};
