import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect, type Socket } from 'node:net';
import { BACKPRESSURE_LIMIT_BYTES } from '../src/http/live/protocol.ts';
import { createAppLiveHub } from '../src/http/app.ts';
import { createAccountRepositories } from '../src/infra/db/accounts/index.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import type { EventBus, EventHandler, SealboxEvent } from '../src/ports/event-bus.ts';
import { openFilesHarness, signedInUser, type FilesHarness, type User } from './files/harness.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

/** Resident memory of this process (server and clients alike), after a full collection. */
function rssMiB(): number {
  Bun.gc(true);
  return process.memoryUsage.rss() / 2 ** 20;
}

/**
 * A client that completes the upgrade, reads the 101 and then never reads again (a stalled tab,
 * a phone gone to sleep): the kernel's buffers fill, then the server's own queue for it.
 */
async function stalledClient(base: string, cookie: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port) });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => resolve());
  });
  socket.write(
    [
      'GET /api/ws HTTP/1.1',
      `Host: ${hostname}:${port}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      `Cookie: sealbox_session=${cookie}`,
      '',
      '',
    ].join('\r\n'),
  );
  await new Promise<void>((resolve, reject) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      if (head.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
  });
  return { socket, closed };
}

/** A tab that keeps up: counts frames without keeping them. */
async function healthyClient(base: string, cookie: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, {
    headers: { cookie: `sealbox_session=${cookie}` },
  } as unknown as string[]);
  const state = { events: 0, socket };
  await new Promise<void>((resolve, reject) => {
    socket.onmessage = (message) => {
      if (String(message.data).startsWith('{"type":"hello"')) resolve();
      else state.events += 1;
    };
    socket.onclose = () => reject(new Error('closed before hello'));
  });
  return state;
}

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(1);
  }
}

describe('live updates: a client that stops reading', () => {
  let h: FilesHarness;
  let app: FilesHarness['app'];
  let hub: ReturnType<typeof createAppLiveHub>;
  /**
   * The hub's own bus, apart from the harness's: the events reach the sockets only, so nothing
   * else in this process keeps them (the harness logs every event, a listing cache the ids of
   * recent ones) and the memory measured is the sockets'.
   */
  const handlers = new Set<EventHandler>();
  const bus: EventBus = {
    publish: async (event: SealboxEvent) => {
      for (const handler of handlers) handler(event);
    },
    subscribe: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    health: async () => {},
    close: async () => {},
  };
  let base: string;
  let alice: User;

  beforeAll(async () => {
    h = await openFilesHarness((events) => sqliteDiskEnv(events, 'sealbox-live-bp-'));
    hub = createAppLiveHub({
      events: bus,
      accounts: createAccountRepositories(h.db),
      files: h.files.store,
      logger: silentLogger,
      clock: () => h.clock.now,
    });
    app = h.makeApp({ live: hub });
    app.listen({ hostname: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${app.server!.port}`;
    alice = await signedInUser(h, app);
  });

  afterAll(async () => {
    await app.stop(true);
    await h.cleanup();
  });

  test('is dropped after a bounded queue; the others keep receiving and memory stays flat', async () => {
    const cookie = alice.browser.cookie!;
    const healthy = await healthyClient(base, cookie);
    await until(() => hub.size() === 1, 5000, 'the healthy socket attached');

    // One items.changed of 1,000 ids is about 40 KB on the wire; the same array every time.
    const itemIds = Array.from({ length: 1000 }, () => crypto.randomUUID());
    const frameBytes = JSON.stringify({ type: 'event', event: { kind: 'items.changed', itemIds, parentIds: [] } }).length;
    const publish = () => bus.publish({ kind: 'items.changed', itemIds, parentIds: [], userIds: [alice.id] });
    // Each batch waits for the healthy tab to have it, so only a stalled client falls behind.
    const sendEvents = async (count: number) => {
      for (let sent = 0; sent < count; sent += 10) {
        const target = healthy.events + 10;
        await Promise.all(Array.from({ length: 10 }, publish));
        await until(() => healthy.events >= target, 10_000, 'the healthy tab to keep up');
      }
    };
    // The same traffic with no stalled client first: what sending it costs by itself.
    const batch = 1000;
    await sendEvents(batch);
    const before = rssMiB();

    const stalled = await stalledClient(base, cookie);
    await until(() => hub.size() === 2, 5000, 'the stalled socket attached');
    // 1,000 frames (about 40 MB) it never reads: past the kernel's buffers and Bun's 1 MiB queue.
    await sendEvents(batch);
    await until(() => hub.size() === 1, 10_000, 'the stalled client to be dropped');
    const atDrop = rssMiB();
    await sendEvents(batch);
    const after = rssMiB();

    expect(healthy.events).toBe(3 * batch);
    expect(hub.size()).toBe(1);
    // Bounded: what the stalled client costs is at most Bun's queue plus slack for the heap,
    // never the ~40 MB it was sent; and nothing more once it is gone.
    expect((batch * frameBytes) / 2 ** 20).toBeGreaterThan(35);
    expect(atDrop - before).toBeLessThan(8 + BACKPRESSURE_LIMIT_BYTES / 2 ** 20);
    expect(after - atDrop).toBeLessThan(8);
    // The server closed it: once the client reads again it finds the end of the stream.
    stalled.socket.resume();
    await stalled.closed;
    healthy.socket.close();
  }, 20_000);
});
