import { subscriptionDeadline, subscriptionStanding, type LinkState, type LinkSubscription } from '../../domain/files/index.ts';
import { RESYNC_EVENT_KIND, type EventBus, type SealboxEvent } from '../../ports/event-bus.ts';
import type { Logger } from '../../ports/logger.ts';
import {
  CLIENT_MESSAGE_LIMIT,
  CLIENT_PING_INTERVAL_MS,
  CLOSE,
  encode,
  judgeClientMessage,
  MAX_SOCKETS_PER_LINK_ADDRESS,
  MAX_SOCKETS_PER_SESSION,
  toClientEvent,
} from './protocol.ts';
import { createTreeHold } from './tree-hold.ts';

/** What the hub needs of a socket (Bun's ServerWebSocket has both). */
export interface LiveSocket {
  /** Bun: bytes sent, -1 when queued under backpressure, 0 when dropped. */
  send(text: string): number;
  close(code?: number, reason?: string): void;
}

/** Who holds a socket. Link visitors subscribe by linkId (what they proved, from which address). */
export type LiveAudience =
  | { kind: 'user'; userId: string; sessionId: string; sessionExpiresAt: number }
  | ({ kind: 'link'; address: string } & LinkSubscription);

export interface LiveHubDeps {
  events: EventBus;
  /** The session's expiry now, or null when it has ended or expired. */
  sessionExpiry(sessionId: string): Promise<number | null>;
  /** A link as it is now, or null once deleted (re-checked after a resync). */
  linkState?(linkId: string): Promise<LinkState | null>;
  logger: Logger;
  clock?: () => number;
  /** How often sessions past their known expiry are looked up again; defaults to one minute. */
  revalidateEveryMs?: number;
  /** How long a tree.changed waits behind its change's other events (tree-hold.ts); defaults to TREE_HOLD_MS. */
  treeHoldMs?: number;
}

interface Entry {
  socket: LiveSocket;
  key: string;
  audience: LiveAudience;
  windowStart: number;
  messages: number;
  /** A link socket's expiry timer. */
  timer?: ReturnType<typeof setTimeout>;
}

/** setTimeout's longest delay (about 24.8 days); a later expiry waits in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type LiveHub = ReturnType<typeof createLiveHub>;

const audienceKey = (audience: LiveAudience) =>
  audience.kind === 'user' ? `user:${audience.userId}` : `link:${audience.linkId}`;

/**
 * Routes bus events to the sockets of this instance. One subscription to the bus, whatever
 * the number of sockets; each event is encoded once and sent only to sockets whose user or
 * link is in its audience. Sockets of an ended session are closed (4401), so a signed-out
 * session stops hearing anything at once, on every instance the event reaches.
 */
export function createLiveHub(deps: LiveHubDeps) {
  const clock = deps.clock ?? Date.now;
  const entries = new Map<LiveSocket, Entry>();
  const byAudience = new Map<string, Set<Entry>>();
  const bySession = new Map<string, Set<Entry>>();
  /** Link sockets by link and address, for MAX_SOCKETS_PER_LINK_ADDRESS. */
  const byLinkAddress = new Map<string, Set<Entry>>();
  const linkAddressKey = (audience: { linkId: string; address: string }) => `${audience.linkId}\0${audience.address}`;

  const add = (index: Map<string, Set<Entry>>, key: string, entry: Entry) => {
    const set = index.get(key) ?? new Set<Entry>();
    index.set(key, set.add(entry));
  };
  const remove = (index: Map<string, Set<Entry>>, key: string, entry: Entry) => {
    const set = index.get(key);
    set?.delete(entry);
    if (set?.size === 0) index.delete(key);
  };

  function detach(socket: LiveSocket): void {
    const entry = entries.get(socket);
    if (!entry) return;
    entries.delete(socket);
    remove(byAudience, entry.key, entry);
    if (entry.audience.kind === 'user') remove(bySession, entry.audience.sessionId, entry);
    else remove(byLinkAddress, linkAddressKey(entry.audience), entry);
    if (entry.timer) clearTimeout(entry.timer);
  }

  function close(entry: Entry, how: { code: number; reason: string }): void {
    detach(entry.socket);
    try {
      entry.socket.close(how.code, how.reason);
    } catch {
      // Already closed by the peer: nothing left to do.
    }
  }

  function send(entry: Entry, text: string): void {
    // With closeOnBackpressureLimit Bun closes a socket that falls too far behind; 0 = dropped.
    if (entry.socket.send(text) === 0) detach(entry.socket);
  }

  function endSession(sessionId: string): void {
    for (const entry of [...(bySession.get(sessionId) ?? [])]) close(entry, CLOSE.sessionEnded);
  }

  function closeLink(linkId: string, how: { code: number; reason: string }): void {
    for (const entry of [...(byAudience.get(`link:${linkId}`) ?? [])]) close(entry, how);
  }

  /** Closes a link socket whose standing is lost; true if it did. */
  function judge(entry: Entry, state?: LinkState | null): boolean {
    if (entry.audience.kind !== 'link') return false;
    const standing = subscriptionStanding(entry.audience, state, clock());
    if (standing === 'ok') return false;
    close(entry, standing === 'gone' ? CLOSE.linkGone : CLOSE.linkLocked);
    return true;
  }

  /** A link socket past its link's expiry (or its proof's) is closed; one before it waits for it. */
  function watchExpiry(entry: Entry): void {
    if (entry.audience.kind !== 'link' || judge(entry)) return;
    const deadline = subscriptionDeadline(entry.audience);
    if (deadline === null) return;
    const left = Math.max(1, deadline - clock());
    entry.timer = setTimeout(
      () => {
        if (entries.get(entry.socket) === entry) watchExpiry(entry);
      },
      Math.min(left, MAX_TIMER_MS),
    );
    entry.timer.unref?.();
  }

  /** Links can change without an event reaching us (a lost notification): look again. */
  async function revalidateLinks(all: boolean): Promise<void> {
    const due = new Set<string>();
    for (const entry of [...entries.values()]) {
      if (entry.audience.kind !== 'link' || judge(entry)) continue;
      if (all && deps.linkState) due.add(entry.audience.linkId);
    }
    for (const linkId of due) {
      const state = await deps.linkState!(linkId).catch((error: unknown) => {
        deps.logger.warn('live link check failed', { error: String(error) });
        return undefined;
      });
      if (state === undefined) continue;
      for (const entry of [...(byAudience.get(`link:${linkId}`) ?? [])]) judge(entry, state);
    }
  }

  /** Sessions can end without an event reaching us (expiry, a lost notification): look again. */
  async function revalidate(all: boolean): Promise<void> {
    await revalidateLinks(all);
    const now = clock();
    const due = new Set<string>();
    for (const entry of entries.values()) {
      if (entry.audience.kind === 'user' && (all || entry.audience.sessionExpiresAt <= now)) due.add(entry.audience.sessionId);
    }
    for (const sessionId of due) {
      const expiresAt = await deps.sessionExpiry(sessionId).catch((error: unknown) => {
        deps.logger.warn('live session check failed', { error: String(error) });
        return undefined;
      });
      if (expiresAt === undefined) continue;
      if (expiresAt === null || expiresAt <= clock()) {
        endSession(sessionId);
        continue;
      }
      for (const entry of bySession.get(sessionId) ?? []) {
        if (entry.audience.kind === 'user') entry.audience.sessionExpiresAt = expiresAt;
      }
    }
  }

  function deliver(event: SealboxEvent): void {
    if (event.kind === 'tree.changed' && event.userIds.length === 1) {
      // Only the owner's sockets hear it; with none here there is nothing to hold.
      if (byAudience.has(`user:${event.userIds[0]}`)) treeHold.hold(event);
      return;
    }
    if (event.kind === RESYNC_EVENT_KIND) {
      treeHold.flushAll();
      const text = encode({ type: 'resync' });
      for (const entry of [...entries.values()]) send(entry, text);
      void revalidate(true);
      return;
    }
    sendEvent(event);
  }

  /** An event to the sockets of its audience, then what it ends. */
  function sendEvent(event: SealboxEvent): void {
    const recipients = new Set<Entry>();
    for (const userId of event.userIds) for (const entry of byAudience.get(`user:${userId}`) ?? []) recipients.add(entry);
    for (const linkId of event.linkIds ?? []) for (const entry of byAudience.get(`link:${linkId}`) ?? []) recipients.add(entry);
    // The ended session's own sockets are closed below instead: told of it as news, their tab
    // would refetch its session list into a 401 before the close arrives.
    if (event.kind === 'session.ended' && event.sessionId !== undefined) {
      for (const entry of bySession.get(event.sessionId) ?? []) recipients.delete(entry);
    }
    if (recipients.size > 0) {
      const text = encode({ type: 'event', event: toClientEvent(event) });
      for (const entry of recipients) send(entry, text);
    }
    if (event.kind === 'session.ended' && event.sessionId !== undefined) endSession(event.sessionId);
    // The link's visitors got the event above; now their sockets go.
    if (event.kind === 'link.deleted' || event.kind === 'link.expired')
      for (const linkId of event.linkIds ?? []) closeLink(linkId, CLOSE.linkGone);
    if (event.kind === 'link.password') for (const linkId of event.linkIds ?? []) closeLink(linkId, CLOSE.linkLocked);
  }

  /**
   * The session was checked when the upgrade was allowed, but it may have ended before the socket
   * opened (its session.ended event then found nothing to close): look once more.
   */
  async function confirmSession(sessionId: string): Promise<void> {
    const expiresAt = await deps.sessionExpiry(sessionId).catch(() => undefined);
    if (expiresAt === null || (expiresAt !== undefined && expiresAt <= clock())) endSession(sessionId);
  }

  /** Like confirmSession: the link may have changed between the upgrade and the open. */
  async function confirmLink(entry: Entry): Promise<void> {
    if (entry.audience.kind !== 'link' || !deps.linkState) return;
    const state = await deps.linkState(entry.audience.linkId).catch(() => undefined);
    if (state === undefined || entries.get(entry.socket) !== entry) return;
    judge(entry, state);
  }

  const treeHold = createTreeHold(sendEvent, deps.treeHoldMs);
  let closed = false;
  const unsubscribe = deps.events.subscribe(deliver);
  const timer = setInterval(() => void revalidate(false), deps.revalidateEveryMs ?? 60_000);
  timer.unref?.();

  return {
    /** Registers an open socket and greets it; events for its audience flow from now on. */
    attach(socket: LiveSocket, audience: LiveAudience): void {
      const entry: Entry = { socket, key: audienceKey(audience), audience, windowStart: clock(), messages: 0 };
      // An upgrade that was still being authorised when the server began to stop.
      if (closed) return void socket.close(CLOSE.goingAway.code, CLOSE.goingAway.reason);
      if (audience.kind === 'user' && (bySession.get(audience.sessionId)?.size ?? 0) >= MAX_SOCKETS_PER_SESSION) {
        return void socket.close(CLOSE.tooManySockets.code, CLOSE.tooManySockets.reason);
      }
      if (audience.kind === 'link' && (byLinkAddress.get(linkAddressKey(audience))?.size ?? 0) >= MAX_SOCKETS_PER_LINK_ADDRESS) {
        return void socket.close(CLOSE.tooManyLinkSockets.code, CLOSE.tooManyLinkSockets.reason);
      }
      entries.set(socket, entry);
      add(byAudience, entry.key, entry);
      if (audience.kind === 'user') add(bySession, audience.sessionId, entry);
      else add(byLinkAddress, linkAddressKey(audience), entry);
      send(entry, encode({ type: 'hello', pingIntervalMs: CLIENT_PING_INTERVAL_MS }));
      if (audience.kind === 'user') void confirmSession(audience.sessionId);
      else {
        watchExpiry(entry);
        void confirmLink(entry);
      }
    },
    detach,
    /** One client frame: a ping is answered; anything else, or too many, closes this socket only. */
    receive(socket: LiveSocket, message: unknown): void {
      const entry = entries.get(socket);
      if (!entry) return;
      const now = clock();
      if (now - entry.windowStart >= CLIENT_MESSAGE_LIMIT.windowMs) {
        entry.windowStart = now;
        entry.messages = 0;
      }
      entry.messages += 1;
      const verdict =
        entry.messages > CLIENT_MESSAGE_LIMIT.count ? { ok: false as const, close: CLOSE.tooMany } : judgeClientMessage(message);
      if (verdict.ok) send(entry, encode({ type: 'pong' }));
      else close(entry, verdict.close);
    },
    /** Open sockets on this instance (benchmarks, logs). */
    size: () => entries.size,
    /** Before the server stops: clients reconnect, to another instance if there is one. */
    close(): void {
      closed = true;
      clearInterval(timer);
      treeHold.clear();
      unsubscribe();
      for (const entry of [...entries.values()]) close(entry, CLOSE.goingAway);
    },
  };
}
