/**
 * A vi.mock factory that swaps only the named exports and leaves the module's others real, so a test
 * fakes the network or the worker and still runs the code around them. vi.mock is hoisted above the
 * imports, so a test file takes this in with `await vi.hoisted(() => import('…/mock-module.ts'))`.
 */
export function overriding(overrides: Record<string, unknown>) {
  return async (importOriginal: () => Promise<unknown>) => ({ ...((await importOriginal()) as object), ...overrides });
}
