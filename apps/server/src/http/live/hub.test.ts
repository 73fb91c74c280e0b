import { afterEach, describe, expect, test } from 'bun:test';
import { createMemoryEventBus } from '../../infra/events/memory-event-bus.ts';
import { silentLogger } from '../../infra/log/json-logger.ts';
import { RESYNC_EVENT_KIND } from '../../ports/event-bus.ts';
import { createLiveHub, type LiveSocket } from './hub.ts';
import { MAX_SOCKETS_PER_SESSION } from './protocol.ts';

class FakeSocket implements LiveSocket {
  sent: Array<Record<string, unknown>> = [];
  closedWith: { code?: number; reason?: string } | undefined;
  /** What Bun's send returns: 0 when it dropped the frame. */
  sendResult = 1;
  send(text: string) {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
    return this.sendResult;
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
  }
  types = () => this.sent.map((m) => m.type);
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function setup(sessions: Map<string, number | null>, options: { revalidateEveryMs?: number; treeHoldMs?: number } = {}) {
  const events = createMemoryEventBus(silentLogger);
  const now = { value: 1_000 };
  const hub = createLiveHub({
    events,
    logger: silentLogger,
    clock: () => now.value,
    sessionExpiry: async (id) => sessions.get(id) ?? null,
    ...options,
  });
  cleanups.push(
    () => hub.close(),
    () => events.close(),
  );
  return { events, hub, now };
}

describe('live hub', () => {
  test('routes by user and by link, encodes no audience', async () => {
    const { events, hub } = setup(new Map());
    const [u1, u2, visitor] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    hub.attach(u1, { kind: 'user', userId: 'u1', sessionId: 's1', sessionExpiresAt: 10_000 });
    hub.attach(u2, { kind: 'user', userId: 'u2', sessionId: 's2', sessionExpiresAt: 10_000 });
    hub.attach(visitor, {
      kind: 'link',
      linkId: 'l1',
      address: '203.0.113.9',
      passwordEpoch: null,
      expiresAt: null,
      proofExpiresAt: null,
    });
    await events.publish({ kind: 'item.renamed', itemId: 'i1', parentId: 'p1', userIds: ['u1', 'other'], linkIds: ['l1'] });
    expect(u1.sent.at(-1)).toEqual({ type: 'event', event: { kind: 'item.renamed', itemId: 'i1', parentId: 'p1' } });
    expect(visitor.sent.at(-1)).toEqual(u1.sent.at(-1)!);
    expect(u2.types()).toEqual(['hello']);
  });

  test("session.ended closes that session's sockets without telling them; the user's others hear it", async () => {
    const { events, hub } = setup(new Map([['kept', 90_000]]));
    const [ending, other] = [new FakeSocket(), new FakeSocket()];
    hub.attach(ending, { kind: 'user', userId: 'u1', sessionId: 'ending', sessionExpiresAt: 90_000 });
    hub.attach(other, { kind: 'user', userId: 'u1', sessionId: 'kept', sessionExpiresAt: 90_000 });
    await events.publish({ kind: 'session.ended', userIds: ['u1'], sessionId: 'ending' });
    expect(ending.types()).toEqual(['hello']);
    expect(ending.closedWith).toEqual({ code: 4401, reason: 'Session ended' });
    expect(other.sent.at(-1)).toEqual({ type: 'event', event: { kind: 'session.ended', sessionId: 'ending' } });
    expect(other.closedWith).toBeUndefined();
  });

  test('a dropped frame forgets the socket', async () => {
    const { events, hub } = setup(new Map());
    const slow = new FakeSocket();
    hub.attach(slow, { kind: 'user', userId: 'u1', sessionId: 's1', sessionExpiresAt: 10_000 });
    slow.sendResult = 0;
    await events.publish({ kind: 'quota.changed', userIds: ['u1'] });
    expect(hub.size()).toBe(0);
  });

  test('a resync reaches every socket and re-checks every session', async () => {
    const sessions = new Map<string, number | null>([['live', 50_000]]);
    const { events, hub } = setup(sessions);
    const [kept, ended] = [new FakeSocket(), new FakeSocket()];
    hub.attach(kept, { kind: 'user', userId: 'u1', sessionId: 'live', sessionExpiresAt: 50_000 });
    hub.attach(ended, { kind: 'user', userId: 'u1', sessionId: 'gone', sessionExpiresAt: 50_000 });
    await events.publish({ kind: RESYNC_EVENT_KIND, userIds: [] });
    expect(kept.types()).toEqual(['hello', 'resync']);
    await Bun.sleep(10);
    expect(ended.closedWith).toEqual({ code: 4401, reason: 'Session ended' });
    expect(kept.closedWith).toBeUndefined();
    expect(hub.size()).toBe(1);
  });

  test('a session that ended before its socket opened is closed at once', async () => {
    const { hub } = setup(new Map([['live', 90_000]]));
    const [late, fine] = [new FakeSocket(), new FakeSocket()];
    hub.attach(late, { kind: 'user', userId: 'u1', sessionId: 'gone', sessionExpiresAt: 90_000 });
    hub.attach(fine, { kind: 'user', userId: 'u1', sessionId: 'live', sessionExpiresAt: 90_000 });
    await Bun.sleep(10);
    expect(late.closedWith).toEqual({ code: 4401, reason: 'Session ended' });
    expect(fine.closedWith).toBeUndefined();
  });

  test('one session holds at most MAX_SOCKETS_PER_SESSION sockets; none attach after close', () => {
    const { hub } = setup(new Map([['s1', 90_000]]));
    const sockets = Array.from({ length: MAX_SOCKETS_PER_SESSION + 1 }, () => new FakeSocket());
    for (const socket of sockets) hub.attach(socket, { kind: 'user', userId: 'u1', sessionId: 's1', sessionExpiresAt: 90_000 });
    expect(hub.size()).toBe(MAX_SOCKETS_PER_SESSION);
    expect(sockets.at(-1)!.closedWith).toEqual({ code: 1008, reason: 'Too many sockets for this session' });
    hub.close();
    const late = new FakeSocket();
    hub.attach(late, { kind: 'user', userId: 'u1', sessionId: 's1', sessionExpiresAt: 90_000 });
    expect(late.closedWith?.code).toBe(1001);
    expect(hub.size()).toBe(0);
  });

  test('sessions past their known expiry are looked up again on the timer', async () => {
    const sessions = new Map<string, number | null>([
      ['slid', 90_000],
      ['expired', 1_500],
    ]);
    const { hub, now } = setup(sessions, { revalidateEveryMs: 5 });
    const [slid, expired] = [new FakeSocket(), new FakeSocket()];
    hub.attach(slid, { kind: 'user', userId: 'u1', sessionId: 'slid', sessionExpiresAt: 2_000 });
    hub.attach(expired, { kind: 'user', userId: 'u1', sessionId: 'expired', sessionExpiresAt: 2_000 });
    now.value = 3_000;
    await Bun.sleep(50);
    expect(expired.closedWith?.code).toBe(4401);
    expect(slid.closedWith).toBeUndefined();
  });

  describe('tree.changed waits behind its change (tree-hold.ts)', () => {
    const tree = (since: number, parentIds?: Array<string | null>) => ({
      kind: 'tree.changed' as const,
      userIds: ['u1'],
      treeSince: since,
      treeVersion: since + 1,
      ...(parentIds ? { parentIds } : {}),
    });
    const owner = () => {
      const { events, hub } = setup(new Map([['s1', 90_000]]), { treeHoldMs: 40 });
      const socket = new FakeSocket();
      hub.attach(socket, { kind: 'user', userId: 'u1', sessionId: 's1', sessionExpiresAt: 10_000 });
      const kinds = () =>
        socket.sent.filter((m) => m.type !== 'hello').map((m) => (m.event as { kind?: string } | undefined)?.kind ?? m.type);
      return { events, hub, socket, kinds };
    };
    const treeFrames = (socket: FakeSocket) =>
      socket.sent.filter((m) => (m.event as { kind?: string } | undefined)?.kind === 'tree.changed').map((m) => m.event);

    test('the item event goes first, then one tree.changed for changes that follow on', async () => {
      const { events, socket, kinds } = owner();
      await events.publish(tree(3, ['p1']));
      await events.publish({ kind: 'item.created', itemId: 'i1', parentId: 'p1', userIds: ['u1'] });
      await events.publish(tree(4, ['p2', 'p1']));
      await events.publish({ kind: 'item.created', itemId: 'i2', parentId: 'p2', userIds: ['u1'] });
      expect(kinds()).toEqual(['item.created', 'item.created']);
      await Bun.sleep(80);
      expect(kinds()).toEqual(['item.created', 'item.created', 'tree.changed']);
      expect(treeFrames(socket)).toEqual([{ kind: 'tree.changed', treeSince: 3, treeVersion: 5, parentIds: ['p1', 'p2'] }]);
    });

    test('a gap is never folded over: the held one goes, the next is held', async () => {
      const { events, socket } = owner();
      await events.publish(tree(3, ['p1']));
      await events.publish(tree(7, ['p2']));
      expect(treeFrames(socket)).toEqual([{ kind: 'tree.changed', treeSince: 3, treeVersion: 4, parentIds: ['p1'] }]);
      await Bun.sleep(80);
      expect(treeFrames(socket).at(-1)).toEqual({ kind: 'tree.changed', treeSince: 7, treeVersion: 8, parentIds: ['p2'] });
    });

    test('folding keeps "refetch it all" and is not held longer than the hold by a stream of changes', async () => {
      const { events, socket } = owner();
      await events.publish(tree(1, ['p1']));
      await events.publish(tree(2));
      // A change every 5 ms, 2 s of them: a hold pushed back by each would send nothing until the end.
      let v = 3;
      for (; treeFrames(socket).length === 0 && v < 400; v++) {
        await events.publish(tree(v, ['p3']));
        await Bun.sleep(5);
      }
      expect(v).toBeLessThan(400);
      expect(treeFrames(socket)[0]).toMatchObject({ treeSince: 1 });
      expect(treeFrames(socket)[0]).not.toHaveProperty('parentIds');
    });

    test('a resync sends what is held first; a user with no socket here has nothing held', async () => {
      const { events, kinds } = owner();
      await events.publish(tree(3, ['p1']));
      await events.publish({ ...tree(9, ['p9']), userIds: ['nobody-here'] });
      await events.publish({ kind: RESYNC_EVENT_KIND, userIds: [] });
      expect(kinds()).toEqual(['tree.changed', 'resync']);
      await Bun.sleep(80);
      expect(kinds()).toEqual(['tree.changed', 'resync']);
    });

    test('the event on the bus is left as it was (other subscribers see it unfolded)', async () => {
      const { events } = owner();
      const first = tree(3, ['p1']);
      await events.publish(first);
      await events.publish(tree(4, ['p2']));
      expect(first).toEqual(tree(3, ['p1']));
    });
  });
});
