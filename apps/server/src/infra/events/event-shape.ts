import { DomainError } from '../../domain/errors.ts';
import type { EventHandler, SealboxEvent } from '../../ports/event-bus.ts';
import type { Logger } from '../../ports/logger.ts';

const KIND = /^[a-z][a-z0-9._:-]{0,63}$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Copies only the known fields, after checking they look like ids: an event must never be
 * able to carry a name, a key or any other payload, whatever a caller passes in.
 */
export function toWireEvent(event: SealboxEvent): SealboxEvent {
  if (typeof event.kind !== 'string' || !KIND.test(event.kind)) {
    throw new DomainError('VALIDATION', 'Event kind must be a short lowercase identifier');
  }
  const ids = (list: unknown, field: string): string[] => {
    if (!Array.isArray(list) || !list.every((id) => typeof id === 'string' && ID.test(id))) {
      throw new DomainError('VALIDATION', `Event ${field} must be a list of ids`);
    }
    return [...new Set(list as string[])];
  };
  const single = (id: unknown, field: string): void => {
    if (typeof id !== 'string' || !ID.test(id)) throw new DomainError('VALIDATION', `Event ${field} must be an id`);
  };
  const wire: SealboxEvent = { kind: event.kind, userIds: ids(event.userIds, 'userIds') };
  if (event.itemId !== undefined) {
    single(event.itemId, 'itemId');
    wire.itemId = event.itemId;
  }
  if (event.parentId !== undefined) {
    if (event.parentId !== null) single(event.parentId, 'parentId');
    wire.parentId = event.parentId;
  }
  if (event.itemIds !== undefined) wire.itemIds = ids(event.itemIds, 'itemIds');
  if (event.parentIds !== undefined) {
    // The top level is null, as a single event's parentId.
    const list = Array.isArray(event.parentIds) ? event.parentIds : [undefined];
    for (const id of list) if (id !== null) single(id, 'parentIds');
    wire.parentIds = [...new Set(list as Array<string | null>)];
  }
  if (event.linkIds !== undefined) wire.linkIds = ids(event.linkIds, 'linkIds');
  if (event.sessionId !== undefined) {
    single(event.sessionId, 'sessionId');
    wire.sessionId = event.sessionId;
  }
  for (const field of ['treeVersion', 'treeSince'] as const) {
    const value = event[field];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) throw new DomainError('VALIDATION', `Event ${field} must be a whole number`);
    wire[field] = value;
  }
  return wire;
}

/** Local subscribers. One throwing handler must not starve the others. */
export function createFanOut(logger: Logger) {
  const handlers = new Set<EventHandler>();
  return {
    subscribe(handler: EventHandler): () => void {
      // Wrapped so the same function subscribed twice gets two independent subscriptions.
      const entry: EventHandler = (event) => handler(event);
      handlers.add(entry);
      return () => {
        handlers.delete(entry);
      };
    },
    deliver(event: SealboxEvent): void {
      for (const handler of [...handlers]) {
        try {
          // Each subscriber gets its own copy: one mutating it cannot affect another.
          handler(structuredClone(event));
        } catch (error) {
          logger.error('event handler failed', { kind: event.kind, error: String(error) });
        }
      }
    },
    clear(): void {
      handlers.clear();
    },
  };
}
