/**
 * Component tests have no server: a request nobody stubbed fails at once, as an unreachable
 * server would in the browser, instead of happy-dom trying localhost:3000 and logging the
 * refused connection into the run's output.
 */
import { beforeEach, vi } from 'vitest';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      throw new TypeError(
        `Failed to fetch ${String(input instanceof Request ? input.url : input)} (no server in component tests)`,
      );
    }),
  );
});
