import { createAppLiveHub } from '../../src/http/app.ts';
import { createAccountRepositories } from '../../src/infra/db/accounts/index.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import type { FilesHarness } from '../files/harness.ts';
/** A live-updates client as a test sees it: every frame kept, waits with deadlines. */
export interface LiveMessage {
  type: string;
  event?: {
    kind: string;
    itemId?: string;
    parentId?: string | null;
    itemIds?: string[];
    parentIds?: Array<string | null>;
    sessionId?: string;
    treeVersion?: number;
    treeSince?: number;
  };
  [field: string]: unknown;
}

/** How long a wait for a frame may take before it counts as a hang. */
const HANG_MS = 30_000;

export class LiveClient {
  readonly messages: LiveMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => {
      socket.addEventListener('close', (e) => {
        resolve({ code: e.code, reason: e.reason });
        this.wake();
      });
    });
    socket.addEventListener('message', (e) => {
      this.messages.push(JSON.parse(String(e.data)) as LiveMessage);
      this.wake();
    });
  }

  /** Opens /api/ws with the session cookie and waits for the server's hello. */
  static async open(
    baseUrl: string,
    cookie: string | undefined,
    options: { origin?: string; path?: string; cookies?: Map<string, string> } = {},
  ): Promise<LiveClient> {
    const headers: Record<string, string> = {};
    // The session cookie, and any others (a share link's access proof) as a browser's jar sends them.
    const jar = [
      ...(cookie ? [`sealbox_session=${cookie}`] : []),
      ...[...(options.cookies ?? [])].map(([name, value]) => `${name}=${value}`),
    ];
    if (jar.length > 0) headers.cookie = jar.join('; ');
    if (options.origin) headers.origin = options.origin;
    const url = `${baseUrl.replace(/^http/, 'ws')}${options.path ?? '/api/ws'}`;
    // Bun's WebSocket takes headers, as a browser sends its cookie jar.
    const client = new LiveClient(new WebSocket(url, { headers } as unknown as string[]));
    await client.next((m) => m.type === 'hello', HANG_MS);
    return client;
  }

  private wake() {
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * The first message (from the start) matching; fails after timeoutMs or if the socket closes.
   * The default only stops a hang (a busy machine may deliver late); a test that expects
   * nothing looks at `messages` after a known later event instead of waiting this out.
   */
  next(match: (m: LiveMessage) => boolean, timeoutMs = HANG_MS): Promise<LiveMessage> {
    return new Promise((resolve, reject) => {
      let closed = false;
      void this.closed.then(() => (closed = true));
      const check = () => {
        const found = this.messages.find(match);
        if (found) return done(() => resolve(found));
        if (closed || this.socket.readyState === WebSocket.CLOSED)
          return done(() => reject(new Error('socket closed while waiting')));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no matching message in ${timeoutMs} ms`))), timeoutMs);
      const done = (finish: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        finish();
      };
      this.waiters.add(check);
      check();
    });
  }

  event(kind: string, itemId?: string, timeoutMs?: number): Promise<LiveMessage> {
    return this.next(
      (m) => m.type === 'event' && m.event?.kind === kind && (itemId === undefined || m.event.itemId === itemId),
      timeoutMs,
    );
  }

  events(): NonNullable<LiveMessage['event']>[] {
    return this.messages.flatMap((m) => (m.type === 'event' && m.event ? [m.event] : []));
  }

  /**
   * The tree.changed frames from message `after` on (the hub holds them behind their changes'
   * other events and folds those that follow on: http/live/tree-hold.ts), checked to chain, each
   * from the last one's version: the versions they span and how many frames.
   */
  treeSpan(after = 0): { since: number; version: number; frames: number } | undefined {
    const trees = this.messages
      .slice(after)
      .flatMap((m) => (m.type === 'event' && m.event?.kind === 'tree.changed' ? [m.event] : []));
    if (trees.length === 0) return undefined;
    for (let i = 1; i < trees.length; i++) {
      if (trees[i]!.treeSince !== trees[i - 1]!.treeVersion)
        throw new Error(`tree.changed frames do not chain: ${JSON.stringify(trees)}`);
    }
    return { since: trees[0]!.treeSince!, version: trees.at(-1)!.treeVersion!, frames: trees.length };
  }

  /** Waits until the tree.changed frames from message `after` on reach `version`. */
  untilTree(version: number, after = 0): Promise<LiveMessage> {
    return this.next(() => (this.treeSpan(after)?.version ?? -1) >= version);
  }

  send(data: string | Uint8Array): void {
    this.socket.send(data);
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * A bare WebSocket upgrade over fetch: a refused upgrade answers with an HTTP status, which a
 * WebSocket client would hide behind a generic close.
 */
export function upgradeRequest(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    headers: {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      ...headers,
    },
  });
}

/**
 * The harness's app listening on 127.0.0.1 with a live hub of its own (over the harness's event
 * bus, sessions and files), as one instance serves /api/ws.
 */
export function serveWithLiveHub(h: FilesHarness, overrides: Parameters<FilesHarness['makeApp']>[0] = {}) {
  const hub = createAppLiveHub({
    events: h.events,
    accounts: createAccountRepositories(h.db),
    files: h.files.store,
    logger: silentLogger,
    clock: () => h.clock.now,
  });
  const app = h.makeApp({ ...overrides, live: hub });
  app.listen({ hostname: '127.0.0.1', port: 0 });
  return { hub, app, base: `http://127.0.0.1:${app.server!.port}` };
}
