import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { EventBus, SealboxEvent } from '../../src/ports/event-bus.ts';
import { waitFor } from '../support/services.ts';

export type MakeBus = () => Promise<{ bus: EventBus; cleanup(): Promise<void> }>;

const event = (overrides: Partial<SealboxEvent> = {}): SealboxEvent => ({
  kind: 'item.created',
  itemId: crypto.randomUUID(),
  parentId: null,
  userIds: [crypto.randomUUID()],
  ...overrides,
});

/** Settles enough for an asynchronous bus to deliver, so "nothing arrived" means something. */
const settle = () => Bun.sleep(100);

export function eventBusContract(name: string, makeBus: MakeBus): void {
  describe(`EventBus contract: ${name}`, () => {
    let bus: EventBus;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ bus, cleanup } = await makeBus());
    });
    afterEach(async () => {
      await cleanup();
    });

    test('delivers each event to every subscriber exactly once', async () => {
      const a: SealboxEvent[] = [];
      const b: SealboxEvent[] = [];
      bus.subscribe((e) => a.push(e));
      bus.subscribe((e) => b.push(e));
      const sent = event({ linkIds: ['abcDEF123_-'] });
      await bus.publish(sent);
      await waitFor(() => a.length >= 1 && b.length >= 1, 30_000, 'delivery');
      await settle();
      expect(a).toEqual([sent]);
      expect(b).toEqual([sent]);
    });

    test('unsubscribe stops delivery to that subscriber only', async () => {
      const kept: SealboxEvent[] = [];
      const dropped: SealboxEvent[] = [];
      bus.subscribe((e) => kept.push(e));
      const unsubscribe = bus.subscribe((e) => dropped.push(e));
      unsubscribe();
      unsubscribe();
      await bus.publish(event());
      await waitFor(() => kept.length === 1, 30_000, 'delivery');
      await settle();
      expect(dropped).toEqual([]);
    });

    test('a throwing subscriber does not stop the others', async () => {
      const got: SealboxEvent[] = [];
      bus.subscribe(() => {
        throw new Error('bad handler');
      });
      bus.subscribe((e) => got.push(e));
      await bus.publish(event());
      await waitFor(() => got.length === 1, 30_000, 'delivery');
    });

    test('events carry ids and kinds only: unknown fields are dropped', async () => {
      const got: SealboxEvent[] = [];
      bus.subscribe((e) => got.push(e));
      const sent = event();
      await bus.publish({ ...sent, name: 'holiday.jpg', key: 'c2VjcmV0' } as SealboxEvent);
      await waitFor(() => got.length === 1, 30_000, 'delivery');
      expect(got[0]).toEqual(sent);
      expect(JSON.stringify(got[0])).not.toContain('holiday');
    });

    test('refuses events whose ids are not ids', async () => {
      await expect(bus.publish(event({ itemId: 'my secret file.pdf' }))).rejects.toThrow();
      await expect(bus.publish(event({ userIds: ['ok', 'not an id!'] }))).rejects.toThrow();
      // No build publishes such a kind (its type says so); a broken caller is still refused.
      await expect(bus.publish(event({ kind: 'Has Spaces' as SealboxEvent['kind'] }))).rejects.toThrow();
    });

    test('health resolves while open; publish fails after close', async () => {
      await bus.health();
      await bus.close();
      await expect(bus.health()).rejects.toThrow();
      await expect(bus.publish(event())).rejects.toThrow();
    });
  });
}
