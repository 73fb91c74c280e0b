/**
 * The browser's end of /api/ws (docs/protocol.md "Live updates"), free of React: one socket,
 * reconnected with capped exponential backoff and jitter, pinged so a dead path is noticed,
 * and told apart from a session that ended (close code 4401: no reconnect, sign out).
 */
import type { LiveEvent as SharedLiveEvent } from '@sealbox/rules';
import { CLIENT_PING_INTERVAL_MS, CLOSE } from '@sealbox/server/live-protocol';

export type LiveStatus = 'connecting' | 'online' | 'offline';

/**
 * The server's event, as /api/ws sends it (its audience never leaves the server). Its kind is a
 * string: a newer server may send one this build does not know (invalidations.ts).
 */
export type LiveEvent = SharedLiveEvent<string>;

/** The instance is stopping: every tab on it reconnects, so they spread over this window. */
export const GOING_AWAY_SPREAD_MS = 5_000;
export const BACKOFF = { firstMs: 500, maxMs: 30_000 };
/** No pong within this after a ping: the path is dead even if the socket looks open. */
export const PONG_TIMEOUT_MS = 10_000;

export interface LiveConnectionOptions {
  url: string;
  onEvent(event: LiveEvent): void;
  /**
   * The socket is (back) up or the server lost track: what was fetched before `since` may be
   * stale (since = Infinity: everything).
   */
  onCatchUp(since: number): void;
  onSessionEnded(): void;
  /**
   * A link visitor's socket was closed for good: 4404 (the link is gone or expired) or 4403 (its
   * password was set or changed: ask again). No reconnect follows.
   */
  onLinkClosed?(code: number): void;
  onStatus(status: LiveStatus): void;
  /** Tests pass fakes; the app uses the browser's. */
  createSocket?: (url: string) => WebSocket;
  now?: () => number;
  random?: () => number;
}

/** Equal jitter: half the capped delay plus a random half, so clients spread out after an outage. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** attempt);
  return cap / 2 + random() * (cap / 2);
}

/** A frame as received: ServerMessage's fields, each checked before use. */
interface Frame {
  type?: unknown;
  event?: LiveEvent;
  pingIntervalMs?: unknown;
}

export function startLiveConnection(options: LiveConnectionOptions): { stop(): void } {
  const now = options.now ?? Date.now;
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  let socket: WebSocket | undefined;
  let attempt = 0;
  let everOnline = false;
  let stopped = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;

  const clearTimers = () => {
    clearTimeout(reconnectTimer);
    clearInterval(pingTimer);
    clearTimeout(pongTimer);
    reconnectTimer = pingTimer = pongTimer = undefined;
  };

  /** The socket is gone (or given up on): go offline and try again after `delay`. */
  const lost = (current: WebSocket, delay: number) => {
    if (socket !== current) return;
    socket = undefined;
    clearTimers();
    if (stopped) return;
    options.onStatus('offline');
    reconnectTimer = setTimeout(connect, delay);
  };

  const connect = () => {
    clearTimers();
    if (stopped) return;
    const current = createSocket(options.url);
    socket = current;
    const giveUp = () => {
      lost(current, backoffDelay(attempt++, options.random));
      current.close(4000, 'No answer');
    };
    // An upgrade that hangs counts as a failed one.
    pongTimer = setTimeout(giveUp, PONG_TIMEOUT_MS);
    current.onmessage = (message) => {
      let parsed: Frame;
      try {
        parsed = JSON.parse(String(message.data)) as Frame;
      } catch {
        return;
      }
      if (parsed.type === 'hello') {
        clearTimeout(pongTimer);
        pongTimer = undefined;
        attempt = 0;
        options.onStatus('online');
        // First socket of the page: only data fetched before the server began sending is in doubt.
        options.onCatchUp(everOnline ? Number.POSITIVE_INFINITY : now());
        everOnline = true;
        const every =
          typeof parsed.pingIntervalMs === 'number' && parsed.pingIntervalMs >= 1000
            ? parsed.pingIntervalMs
            : CLIENT_PING_INTERVAL_MS;
        pingTimer = setInterval(() => {
          current.send('{"type":"ping"}');
          // A dead path may take a minute to report the close: give up on it now.
          pongTimer ??= setTimeout(giveUp, PONG_TIMEOUT_MS);
        }, every);
      } else if (parsed.type === 'pong') {
        clearTimeout(pongTimer);
        pongTimer = undefined;
      } else if (parsed.type === 'resync') {
        options.onCatchUp(Number.POSITIVE_INFINITY);
      } else if (parsed.type === 'event' && parsed.event && typeof parsed.event.kind === 'string') {
        options.onEvent(parsed.event);
      }
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      if (event.code === CLOSE.sessionEnded.code) {
        socket = undefined;
        clearTimers();
        if (stopped) return;
        stopped = true;
        options.onSessionEnded();
        return;
      }
      if (event.code === CLOSE.linkGone.code || event.code === CLOSE.linkLocked.code) {
        socket = undefined;
        clearTimers();
        if (stopped) return;
        stopped = true;
        options.onStatus('offline');
        options.onLinkClosed?.(event.code);
        return;
      }
      const random = options.random ?? Math.random;
      lost(
        current,
        event.code === CLOSE.goingAway.code ? random() * GOING_AWAY_SPREAD_MS : backoffDelay(attempt++, options.random),
      );
    };
  };

  // Back on the network or back to the tab: try at once instead of waiting out the backoff.
  const retryNow = () => {
    if (stopped || socket || document.visibilityState === 'hidden') return;
    attempt = 0;
    connect();
  };
  window.addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', retryNow);

  options.onStatus('connecting');
  connect();

  return {
    stop() {
      stopped = true;
      clearTimers();
      window.removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', retryNow);
      const current = socket;
      socket = undefined;
      current?.close(1000, 'Signed out');
    },
  };
}
