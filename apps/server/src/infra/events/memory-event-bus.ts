import type { EventBus } from '../../ports/event-bus.ts';
import type { Logger } from '../../ports/logger.ts';
import { createFanOut, toWireEvent } from './event-shape.ts';

/** Single-instance bus: fine for one server process, invisible to any other. */
export function createMemoryEventBus(logger: Logger): EventBus {
  const fanOut = createFanOut(logger);
  let closed = false;
  return {
    async publish(event) {
      if (closed) throw new Error('Event bus is closed');
      fanOut.deliver(toWireEvent(event));
    },
    subscribe: (handler) => fanOut.subscribe(handler),
    async health() {
      if (closed) throw new Error('Event bus is closed');
    },
    async close() {
      closed = true;
      fanOut.clear();
    },
  };
}
