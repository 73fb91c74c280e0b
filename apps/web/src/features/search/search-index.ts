/**
 * The page's side of the sealed search index (docs/web-files.md "Search"): when to open, build
 * or rebuild it in the crypto worker, the progress hint's numbers, and the events and listings
 * that keep it current. One per tab; the worker holds the names and the key.
 */
import { cryptoWorker } from '../../crypto/client.ts';
import { api } from '../../lib/api.ts';
import { onSignOut } from '../auth/index.ts';
import type { ItemView } from '../../model/items.ts';

export type IndexPhase = 'off' | 'opening' | 'building' | 'ready' | 'unavailable' | 'failed';

export interface IndexSnapshot {
  phase: IndexPhase;
  /** While building: names opened so far, of how many. */
  progress?: { opened: number; total: number } | undefined;
  /** Ready, but being rebuilt in the background (it did not match the server's version). */
  updating: boolean;
  /** Changes each time what the index holds may have changed: searches run again. */
  generation: number;
  /** It holds what is shared with the user (/shared was opened once, in this session or before). */
  shared: boolean;
}

/** Where a search looks in the index: the own tree, or what is shared with the user. */
export type SearchSection = 'own' | 'shared';

export interface TreeChangedEvent {
  treeVersion: number;
  treeSince: number;
  parentIds?: Array<string | null> | undefined;
}

let snapshot: IndexSnapshot = { phase: 'off', updating: false, generation: 0, shared: false };
const listeners = new Set<() => void>();
/** Events and listings wait here, one at a time, behind an open or a build. */
let queue: Promise<unknown> = Promise.resolve();
let session = 0;

function set(patch: Partial<IndexSnapshot>): void {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
}

export const searchIndexStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): IndexSnapshot => snapshot,
};

/** In line after what came before, and dropped if the session ended meanwhile. */
function enqueue(work: () => Promise<unknown>): Promise<unknown> {
  const mine = session;
  queue = queue.then(() => (mine === session ? work() : undefined)).catch(() => undefined);
  return queue;
}

async function serverVersion(): Promise<number | undefined> {
  const { data } = await api.api.file['tree-version'].get();
  return data?.treeVersion;
}

/** Builds (or rebuilds, the old index serving meanwhile) from the whole tree, with the hint's numbers. */
async function build(): Promise<void> {
  const mine = session;
  const rebuilding = snapshot.phase === 'ready';
  if (rebuilding) set({ updating: true });
  else set({ phase: 'building', progress: undefined });
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<{ opened: number; total: number }>) => {
    if (mine === session && !rebuilding) set({ progress: event.data });
  };
  const started = performance.now();
  try {
    const state = await cryptoWorker.call('searchIndexBuild', channel.port2);
    if (mine !== session) return;
    // For bench/search: how long the whole build took (tree fetched, opened, sealed, written).
    if (state.state === 'ready')
      performance.mark('search:index-built', {
        detail: { ms: performance.now() - started, names: state.names, rebuilt: rebuilding, phases: state.phases },
      });
    if (state.state === 'unavailable') set({ phase: 'unavailable', updating: false });
    else set({ phase: 'ready', updating: false, progress: undefined, generation: snapshot.generation + 1 });
  } catch {
    if (mine === session) set(rebuilding ? { updating: false } : { phase: 'failed', progress: undefined });
  } finally {
    channel.port1.close();
  }
}

/** The session whose stored index the worker was asked to open before the files screen showed. */
let warmed = -1;

/**
 * Before the files screen's first paint (its route's loader): the worker starts opening the stored
 * index, so that after a reload the names record is open by the time the search box shows. Only
 * the opening: with no stored index (as after a sign-in) the build waits for the screen.
 */
export function warmSearchIndex(): void {
  if (snapshot.phase !== 'off' || warmed === session) return;
  warmed = session;
  void cryptoWorker.call('searchIndexOpen').catch(() => undefined);
}

/**
 * Once per session (the files screen is up): the stored index opened and searchable at once;
 * built in the background when there is none, rebuilt when its version is not the server's.
 */
export function startSearchIndex(): void {
  if (snapshot.phase !== 'off') return;
  set({ phase: 'opening' });
  const mine = session;
  void enqueue(async () => {
    const started = performance.now();
    const first = await cryptoWorker.call('searchIndexOpen');
    if (mine !== session) return;
    const early = first.state === 'ready' && first.early === true;
    if (early) {
      // Searchable from the names record; its answers are partial until the rest is open.
      performance.mark('search:names-opened', { detail: { ms: performance.now() - started, names: first.names } });
      set({ phase: 'ready', generation: snapshot.generation + 1 });
    }
    let state = first;
    try {
      if (early) state = await cryptoWorker.call('searchIndexOpenWhole');
    } catch {
      state = { state: 'none' };
    }
    if (mine !== session) return;
    // For the benches: how long after the screen asked the whole index answered (its opening may
    // have begun in the loader, and waits for a pause in the searches), and where the time went.
    if (state.state === 'ready' && state.opened)
      performance.mark('search:index-opened', {
        detail: { ms: performance.now() - started, names: state.names, ...state.opened },
      });
    if (state.state === 'unavailable') return set({ phase: 'unavailable' });
    if (state.state === 'none') {
      // The names opened but the rest did not: nothing is searchable until it is built again.
      set({ phase: 'opening' });
      return build();
    }
    set({ phase: 'ready', generation: snapshot.generation + 1, shared: state.shared });
    const version = await serverVersion();
    if (mine === session && version !== state.treeVersion) await build();
  }).then(() => {
    if (mine === session && snapshot.phase === 'opening') set({ phase: 'failed' });
  });
}

/** A `tree.changed` of the socket: applied in order, or the index is rebuilt. */
export function applyTreeChange(event: TreeChangedEvent): void {
  if (snapshot.phase === 'off' || snapshot.phase === 'unavailable') return;
  void enqueue(async () => {
    if (snapshot.phase !== 'ready') return;
    const applied = await cryptoWorker.call('searchIndexApply', event);
    if (!applied) return build();
    set({ generation: snapshot.generation + 1 });
  });
}

/** The socket came back after missing events: the server's version decides whether to rebuild. */
export function recheckSearchIndex(): void {
  if (snapshot.phase !== 'ready') return;
  void enqueue(async () => {
    const state = await cryptoWorker.call('searchIndexOpen');
    if (state.state !== 'ready' || (await serverVersion()) !== state.treeVersion) await build();
  });
}

/** A whole own folder the user opened: its names go into the index. */
export function noteOwnListing(parentId: string | null, items: ItemView[]): void {
  if (snapshot.phase !== 'ready') return;
  void enqueue(async () => {
    if (await cryptoWorker.call('searchIndexNoteListing', parentId, items)) set({ generation: snapshot.generation + 1 });
  });
}

/** /shared was opened: what is shared with the user, the shared items and their subtrees, replaces what the index held of it. */
export function noteSharedItems(items: ItemView[]): void {
  if (snapshot.phase !== 'ready') return;
  void enqueue(async () => {
    await cryptoWorker.call('searchIndexSetShared', items);
    set({ shared: true, generation: snapshot.generation + 1 });
  });
}

/**
 * Before a result of the index is opened: its key, which this tab may never have listed (the
 * index answered without the tree). A failure is the opener's to report (it finds no key).
 */
export async function openKeyOf(section: SearchSection, itemId: string): Promise<void> {
  await cryptoWorker.call('searchIndexOpenKey', section, itemId).catch(() => undefined);
}

/** Sign-out: nothing more for this session (the worker deletes the index with the keys). */
export function resetSearchIndex(): void {
  session++;
  queue = Promise.resolve();
  set({ phase: 'off', updating: false, progress: undefined, shared: false });
}

onSignOut(resetSearchIndex);
