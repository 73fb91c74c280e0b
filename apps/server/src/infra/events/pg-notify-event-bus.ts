import { RESYNC_EVENT_KIND, type EventBus, type SealboxEvent } from '../../ports/event-bus.ts';
import type { Logger } from '../../ports/logger.ts';
import { createPostgresClient } from '../db/postgres/open-postgres-db.ts';
import { createFanOut, toWireEvent } from './event-shape.ts';

export const DEFAULT_EVENT_CHANNEL = 'sealbox_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; keep a margin. */
export const MAX_PAYLOAD_BYTES = 7500;

interface Envelope {
  /** Instance that published: it has already delivered locally and skips its own echo. */
  o: string;
  e: SealboxEvent;
}

/**
 * Fans events out across server instances with LISTEN/NOTIFY. postgres.js keeps the LISTEN on a
 * dedicated connection and re-issues it after a reconnect (see the reconnect test);
 * notifications sent while it was disconnected are lost, so after each reconnect subscribers get
 * a local RESYNC_EVENT_KIND event and the live hub tells every client to fetch again.
 */
export async function createPgNotifyEventBus(options: { url: string; logger: Logger; channel?: string }): Promise<EventBus> {
  const { logger } = options;
  const channel = options.channel ?? DEFAULT_EVENT_CHANNEL;
  const sql = createPostgresClient(options.url, { max: 2, applicationName: 'sealbox-events' });
  const instance = crypto.randomUUID();
  const fanOut = createFanOut(logger);
  let closed = false;

  const onNotify = (payload: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
      if (envelope.o === instance) return;
      fanOut.deliver(toWireEvent(envelope.e));
    } catch (error) {
      logger.warn('ignored malformed event notification', { channel, error: String(error) });
    }
  };
  // postgres.js calls this after every LISTEN, the first and each one after a reconnect.
  let listening = false;
  const onListen = () => {
    if (listening) {
      logger.info('event bus reconnected', { channel });
      fanOut.deliver({ kind: RESYNC_EVENT_KIND, userIds: [] });
    }
    listening = true;
  };
  const listener = await sql.listen(channel, onNotify, onListen).catch(async (error: unknown) => {
    await sql.end({ timeout: 1 });
    throw error;
  });

  return {
    async publish(event) {
      if (closed) throw new Error('Event bus is closed');
      const wire = toWireEvent(event);
      const payloads = envelopes(instance, wire);
      // The other instances are told first, then this one's sockets are written to: thousands of
      // sockets take tens of milliseconds on each instance, and this way they run at once rather
      // than one after the other (postgres.js sends a query on the next turn of the event loop,
      // which a long local delivery would hold back). Delivered locally even if NOTIFY fails.
      try {
        for (const payload of payloads) await sql.notify(channel, payload);
      } finally {
        fanOut.deliver(wire);
      }
    },
    subscribe: (handler) => fanOut.subscribe(handler),
    async health() {
      if (closed) throw new Error('Event bus is closed');
      await sql`select 1`;
    },
    async close() {
      if (closed) return;
      closed = true;
      fanOut.clear();
      await listener.unlisten().catch(() => {});
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * The lists a large event is halved along, in this order: a batch's items and folders first (each
 * part still reaches the whole audience, so there are fewer parts), then the audience. `once` goes
 * with the first half only, so its readers get it once (a link's sockets, a folder's refresh).
 */
const SPLITS = [
  { field: 'itemIds', once: 'parentIds' },
  { field: 'parentIds' },
  { field: 'userIds', once: 'linkIds' },
  { field: 'linkIds' },
] as const satisfies ReadonlyArray<{ field: keyof SealboxEvent; once?: keyof SealboxEvent }>;

/** Splits a large event (its audience, or a batch's ids) over several notifications, each under the limit. */
export function envelopes(instance: string, event: SealboxEvent): string[] {
  const payload = JSON.stringify({ o: instance, e: event } satisfies Envelope);
  if (new TextEncoder().encode(payload).length <= MAX_PAYLOAD_BYTES) return [payload];
  for (const split of SPLITS) {
    const list = event[split.field] as unknown[] | undefined;
    if (!list || list.length < 2) continue;
    const halves = [list.slice(0, list.length >> 1), list.slice(list.length >> 1)];
    return halves.flatMap((half, i) => {
      const part: SealboxEvent = { ...event, [split.field]: half };
      if ('once' in split && i > 0 && event[split.once] !== undefined) Object.assign(part, { [split.once]: [] });
      return envelopes(instance, part);
    });
  }
  throw new Error('Event too large to publish');
}
