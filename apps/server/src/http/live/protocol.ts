import type { LiveEvent } from '@sealbox/rules';
import type { SealboxEvent } from '../../ports/event-bus.ts';

/**
 * The wire protocol of /api/ws (docs/protocol.md "Live updates"). The server speaks JSON text
 * frames; the client may only ping. Everything here is ids and kinds: an event's audience
 * (who else can see the item) is never sent, so a socket learns nothing about other users.
 */
export type ServerMessage =
  /** First frame on a new socket: from here on nothing is missed (the client refetches what it shows). */
  | { type: 'hello'; pingIntervalMs: number }
  | { type: 'event'; event: ClientEvent }
  /** Events may have been lost (the instance's bus reconnected): refetch everything shown. */
  | { type: 'resync' }
  | { type: 'pong' };

/** An event as a socket receives it: its kind and ids (@sealbox/rules `LiveEvent`). */
export type ClientEvent = LiveEvent<SealboxEvent['kind']>;

/** How often the client pings, so a dead path is noticed within about a minute (client side). */
export const CLIENT_PING_INTERVAL_MS = 25_000;
/** Larger client frames close the socket (Bun answers 1009 itself). A ping is 15 bytes. */
export const MAX_CLIENT_MESSAGE_BYTES = 1024;
/** Pings above this rate are not a well-behaved client: closed, the others are unaffected. */
export const CLIENT_MESSAGE_LIMIT = { count: 20, windowMs: 10_000 };
/** One browser's tabs share a session; more sockets than this on one session are refused. */
export const MAX_SOCKETS_PER_SESSION = 32;
/** Link visitors have no session: at most this many sockets per link from one address. */
export const MAX_SOCKETS_PER_LINK_ADDRESS = 32;
/** A socket whose unsent frames pile up past this is too slow to follow; it is closed. */
export const BACKPRESSURE_LIMIT_BYTES = 1024 * 1024;

/** Close codes (RFC 6455 7.4.1; 4000-4999 are the application's). */
export const CLOSE = {
  goingAway: { code: 1001, reason: 'Server shutting down' },
  binary: { code: 1003, reason: 'Binary frames are not accepted' },
  malformed: { code: 1007, reason: 'Malformed message' },
  tooMany: { code: 1008, reason: 'Too many messages' },
  tooManySockets: { code: 1008, reason: 'Too many sockets for this session' },
  /** The client signs out when it sees this one. */
  sessionEnded: { code: 4401, reason: 'Session ended' },
  tooManyLinkSockets: { code: 1008, reason: 'Too many sockets for this link' },
  /** A link visitor's link was deleted or expired (or its item is gone): do not reconnect. */
  linkGone: { code: 4404, reason: 'Link not found' },
  /** The link's password was set or changed, or the socket's proof lapsed: ask for it again (GET /api/shared/{linkId} is 401). */
  linkLocked: { code: 4403, reason: 'Link password needed' },
} as const;

export function toClientEvent(event: SealboxEvent): ClientEvent {
  const out: ClientEvent = { kind: event.kind };
  if (event.itemId !== undefined) out.itemId = event.itemId;
  if (event.parentId !== undefined) out.parentId = event.parentId;
  if (event.itemIds !== undefined) out.itemIds = event.itemIds;
  if (event.parentIds !== undefined) out.parentIds = event.parentIds;
  if (event.sessionId !== undefined) out.sessionId = event.sessionId;
  if (event.treeVersion !== undefined) out.treeVersion = event.treeVersion;
  if (event.treeSince !== undefined) out.treeSince = event.treeSince;
  return out;
}

export function encode(message: ServerMessage): string {
  return JSON.stringify(message);
}

export type ClientMessageVerdict = { ok: true } | { ok: false; close: { code: number; reason: string } };

/**
 * Judges one client frame as Elysia hands it over: text that looks like JSON arrives parsed,
 * other text as a string, binary as a Buffer. Only `{"type":"ping"}` is understood.
 */
export function judgeClientMessage(message: unknown): ClientMessageVerdict {
  if (message instanceof Uint8Array || message instanceof ArrayBuffer) return { ok: false, close: CLOSE.binary };
  const isPing =
    typeof message === 'object' &&
    message !== null &&
    !Array.isArray(message) &&
    Object.keys(message).length === 1 &&
    (message as { type?: unknown }).type === 'ping';
  return isPing ? { ok: true } : { ok: false, close: CLOSE.malformed };
}
