import { describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { eventBusContract } from './contracts/event-bus.contract.ts';
import { postgresAvailability, reportUnavailable, TEST_DATABASE_URL, uniqueIdentifier, waitFor } from './support/services.ts';
import { createPgNotifyEventBus, envelopes, MAX_PAYLOAD_BYTES } from '../src/infra/events/pg-notify-event-bus.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import type { EventBus, SealboxEvent } from '../src/ports/event-bus.ts';

const availability = await postgresAvailability();

const makeBus = (channel: string) => createPgNotifyEventBus({ url: TEST_DATABASE_URL, logger: silentLogger, channel });

describe('pg-notify payloads', () => {
  test('a large audience is split over several notifications, each under the limit', () => {
    const userIds = Array.from({ length: 1000 }, () => crypto.randomUUID());
    const payloads = envelopes('instance', { kind: 'item.renamed', itemId: 'i', userIds });
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(new TextEncoder().encode(p).length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const received = payloads.flatMap((p) => (JSON.parse(p) as { e: SealboxEvent }).e.userIds);
    expect(received.sort()).toEqual([...userIds].sort());
  });

  test("a batch's one event is split along its ids, each part to the whole audience, folders once", () => {
    const itemIds = Array.from({ length: 5000 }, () => crypto.randomUUID());
    const parentIds = [null, crypto.randomUUID()];
    const event: SealboxEvent = { kind: 'items.changed', itemIds, parentIds, userIds: ['u1', 'u2'], linkIds: ['l1'] };
    const parts = envelopes('instance', event).map((p) => {
      expect(new TextEncoder().encode(p).length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
      return (JSON.parse(p) as { e: SealboxEvent }).e;
    });
    // About 190 ids a notification: 5,000 in a few dozen, never one per item.
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.length).toBeLessThanOrEqual(40);
    for (const part of parts) expect([part.userIds, part.linkIds]).toEqual([['u1', 'u2'], ['l1']]);
    expect(parts.flatMap((part) => part.itemIds ?? []).sort()).toEqual([...itemIds].sort());
    expect(parts.flatMap((part) => part.parentIds ?? [])).toEqual(parentIds);
  });
});

if (availability.available) {
  eventBusContract('pg-notify', async () => {
    const bus = await makeBus(uniqueIdentifier('sealbox_events_test'));
    return { bus, cleanup: () => bus.close() };
  });

  describe('pg-notify across instances', () => {
    async function twoInstances(): Promise<[EventBus, EventBus]> {
      const channel = uniqueIdentifier('sealbox_events_test');
      return [await makeBus(channel), await makeBus(channel)];
    }

    test("each instance sees the other's events, and its own exactly once", async () => {
      const [a, b] = await twoInstances();
      try {
        const atA: SealboxEvent[] = [];
        const atB: SealboxEvent[] = [];
        a.subscribe((e) => atA.push(e));
        b.subscribe((e) => atB.push(e));
        const fromA: SealboxEvent = { kind: 'item.created', itemId: 'a1', parentId: null, userIds: ['u1'] };
        const fromB: SealboxEvent = { kind: 'item.deleted', itemId: 'b1', parentId: 'p1', userIds: ['u2'] };
        await a.publish(fromA);
        await b.publish(fromB);
        await waitFor(() => atA.length >= 2 && atB.length >= 2, 30_000, 'cross-instance delivery');
        await Bun.sleep(200);
        expect(atA).toEqual(expect.arrayContaining([fromA, fromB]));
        expect(atA.length).toBe(2);
        expect(atB).toEqual(expect.arrayContaining([fromA, fromB]));
        expect(atB.length).toBe(2);
      } finally {
        await a.close();
        await b.close();
      }
    });

    /** Publishes `event` on one instance; the other must see every id `read` takes from what it gets. */
    async function arrivesWhole(event: SealboxEvent, read: (e: SealboxEvent) => string[] | undefined, ids: string[]) {
      const [a, b] = await twoInstances();
      try {
        const atB = new Set<string>();
        b.subscribe((e) => {
          for (const id of read(e) ?? []) atB.add(id);
        });
        await a.publish(event);
        await waitFor(() => atB.size === ids.length, 30_000, 'all ids');
      } finally {
        await a.close();
        await b.close();
      }
    }

    test('a large audience arrives whole at the other instance', async () => {
      const userIds = Array.from({ length: 600 }, () => crypto.randomUUID());
      await arrivesWhole({ kind: 'item.renamed', itemId: 'x', userIds }, (e) => e.userIds, userIds);
    });

    test("a batch's event with 5,000 items arrives whole at the other instance", async () => {
      const itemIds = Array.from({ length: 5000 }, () => crypto.randomUUID());
      await arrivesWhole({ kind: 'items.changed', itemIds, parentIds: [null], userIds: ['u1'] }, (e) => e.itemIds, itemIds);
    });

    test('the listener re-subscribes after its connection is killed', async () => {
      const channel = uniqueIdentifier('sealbox_events_test');
      const a = await makeBus(channel);
      const b = await makeBus(channel);
      const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
      try {
        const atB: SealboxEvent[] = [];
        b.subscribe((e) => atB.push(e));
        // Every bus's LISTEN connection on this channel: kill them all, as a restart of the
        // network path or a failover would.
        const killed = await admin`
          select pg_terminate_backend(pid) as ok from pg_stat_activity
          where application_name = 'sealbox-events' and query = ${`listen "${channel}"`}`;
        expect(killed.length).toBeGreaterThanOrEqual(2);
        let n = 0;
        await waitFor(
          async () => {
            await a.publish({ kind: 'item.renamed', itemId: `p${++n}`, userIds: [] });
            await Bun.sleep(100);
            return atB.length > 0;
          },
          30_000,
          'delivery after reconnect',
        );
      } finally {
        await admin.end({ timeout: 5 });
        await a.close();
        await b.close();
      }
    }, 20_000);
  });
} else {
  reportUnavailable('EventBus contract: pg-notify', availability.reason);
}
