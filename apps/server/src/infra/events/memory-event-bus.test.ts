import { eventBusContract } from '../../../test/contracts/event-bus.contract.ts';
import { silentLogger } from '../log/json-logger.ts';
import { createMemoryEventBus } from './memory-event-bus.ts';

eventBusContract('memory', async () => {
  const bus = createMemoryEventBus(silentLogger);
  return { bus, cleanup: () => bus.close() };
});
