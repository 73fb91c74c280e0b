import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  backoffDelay,
  BACKOFF,
  GOING_AWAY_SPREAD_MS,
  PONG_TIMEOUT_MS,
  startLiveConnection,
  type LiveEvent,
  type LiveStatus,
} from './connection.ts';

class FakeSocket {
  static all: FakeSocket[] = [];
  sent: string[] = [];
  closedWith: number | undefined;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  /** A dead path: close() is recorded but no close event follows for a long while. */
  deaf = false;
  close(code = 1000) {
    this.closedWith = code;
    if (!this.deaf) this.onclose?.({ code });
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code: number) {
    this.onclose?.({ code });
  }
}

function start() {
  const record = {
    statuses: [] as LiveStatus[],
    events: [] as LiveEvent[],
    catchUps: [] as number[],
    ended: 0,
    linkClosed: [] as number[],
  };
  const connection = startLiveConnection({
    url: 'ws://app/api/ws',
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    onEvent: (e) => record.events.push(e),
    onCatchUp: (since) => record.catchUps.push(since),
    onSessionEnded: () => record.ended++,
    onLinkClosed: (code) => record.linkClosed.push(code),
    onStatus: (s) => record.statuses.push(s),
    now: () => Date.now(),
    random: () => 1,
  });
  return { record, connection, latest: () => FakeSocket.all.at(-1)! };
}

/** The client closed a silent socket itself (4000), shows offline, and tries again after the first backoff. */
function expectGaveUpAndRetried(record: ReturnType<typeof start>['record'], socket: FakeSocket) {
  expect(socket.closedWith).toBe(4000);
  expect(record.statuses.at(-1)).toBe('offline');
  vi.advanceTimersByTime(BACKOFF.firstMs);
  expect(FakeSocket.all).toHaveLength(2);
}

beforeEach(() => {
  vi.useFakeTimers({ now: 10_000 });
  FakeSocket.all = [];
});
afterEach(() => vi.useRealTimers());

describe('live connection', () => {
  test('backoff doubles up to its cap, with jitter in the upper half', () => {
    expect(backoffDelay(0, () => 0)).toBe(BACKOFF.firstMs / 2);
    expect(backoffDelay(0, () => 1)).toBe(BACKOFF.firstMs);
    expect(backoffDelay(3, () => 1)).toBe(BACKOFF.firstMs * 8);
    expect(backoffDelay(30, () => 1)).toBe(BACKOFF.maxMs);
  });

  test('online on hello; events pass through; the first hello catches up on what was fetched before it', () => {
    const { record, latest, connection } = start();
    expect(record.statuses).toEqual(['connecting']);
    latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
    expect(record.statuses).toEqual(['connecting', 'online']);
    expect(record.catchUps).toEqual([Date.now()]);
    latest().receive({ type: 'event', event: { kind: 'item.created', itemId: 'i', parentId: null } });
    latest().receive({ type: 'event', event: { itemId: 'no kind' } });
    expect(record.events).toEqual([{ kind: 'item.created', itemId: 'i', parentId: null }]);
    latest().receive({ type: 'resync' });
    expect(record.catchUps).toEqual([Date.now(), Number.POSITIVE_INFINITY]);
    connection.stop();
    expect(latest().closedWith).toBe(1000);
  });

  test('a drop goes offline and reconnects with growing delays; the next hello catches up on everything', () => {
    const { record, latest, connection } = start();
    latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
    latest().drop(1006);
    expect(record.statuses.at(-1)).toBe('offline');
    vi.advanceTimersByTime(BACKOFF.firstMs - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().drop(1006);
    vi.advanceTimersByTime(BACKOFF.firstMs * 2);
    expect(FakeSocket.all).toHaveLength(3);
    latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
    expect(record.statuses.at(-1)).toBe('online');
    expect(record.catchUps.at(-1)).toBe(Number.POSITIVE_INFINITY);
    connection.stop();
  });

  test('a ping without a pong goes offline at once and reconnects, even if the close never comes', () => {
    const { record, latest, connection } = start();
    latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
    vi.advanceTimersByTime(25_000);
    expect(latest().sent).toEqual(['{"type":"ping"}']);
    latest().receive({ type: 'pong' });
    latest().deaf = true;
    vi.advanceTimersByTime(25_000 + PONG_TIMEOUT_MS);
    expectGaveUpAndRetried(record, latest());
    connection.stop();
  });

  test('an upgrade that never answers counts as failed', () => {
    const { record, latest, connection } = start();
    latest().deaf = true;
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expectGaveUpAndRetried(record, latest());
    connection.stop();
  });

  test('an instance going away (1001): tabs come back spread over a few seconds', () => {
    const { latest, connection } = start();
    latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
    latest().drop(1001);
    vi.advanceTimersByTime(GOING_AWAY_SPREAD_MS - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    connection.stop();
  });

  test('close code 4401 reports the ended session and never reconnects', () => {
    const { record, latest } = start();
    latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
    latest().drop(4401);
    expect(record.ended).toBe(1);
    vi.advanceTimersByTime(BACKOFF.maxMs * 2);
    expect(FakeSocket.all).toHaveLength(1);
  });

  for (const code of [4404, 4403]) {
    test(`a link socket closed with ${code} reports it, shows offline and never reconnects`, () => {
      const { record, latest } = start();
      latest().receive({ type: 'hello', pingIntervalMs: 25_000 });
      latest().drop(code);
      expect(record.linkClosed).toEqual([code]);
      expect(record.ended).toBe(0);
      expect(record.statuses.at(-1)).toBe('offline');
      vi.advanceTimersByTime(BACKOFF.maxMs * 2);
      expect(FakeSocket.all).toHaveLength(1);
    });
  }
});
