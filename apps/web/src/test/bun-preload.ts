/**
 * `bun test` at the repository root runs the web app's component tests beside the server's
 * (bunfig.toml preloads this). vitest, the web app's own runner, gives them a happy-dom
 * environment and its `vi`; under bun this module supplies what bun lacks:
 *
 * - the DOM: a happy-dom Window whose names are MISSING from globalThis (document, window,
 *   localStorage, HTMLElement, ...). Nothing bun already has is replaced, so the server and
 *   e2e suites in the same process keep bun's fetch, Request, Response, WebSocket and events;
 * - `vi.hoisted`, `vi.setSystemTime`, `vi.waitFor`, and `vi.mock` factories that take
 *   `importOriginal`; a file's module mocks end with the file, spies with each test (vitest's
 *   `restoreMocks`).
 */
import { afterAll, beforeAll, beforeEach, jest, mock, vi } from 'bun:test';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';

/* ---------------------------------------------------------------- the DOM */

/** vitest's happy-dom environment has this URL too. */
const window = new Window({ url: 'http://localhost:3000/' });
const globals = globalThis as unknown as Record<string, unknown>;

function install(name: string, descriptor: PropertyDescriptor): void {
  if (name in globalThis) return;
  if ('value' in descriptor) {
    const value: unknown = descriptor.value;
    // Window functions (getComputedStyle, requestAnimationFrame, ...) need their window; classes do not.
    const bound =
      typeof value === 'function' && !/^class[\s{]/.test(Function.prototype.toString.call(value)) && !value.prototype
        ? value.bind(window)
        : value;
    Object.defineProperty(globalThis, name, { value: bound, writable: true, configurable: true });
  } else {
    Object.defineProperty(globalThis, name, {
      get: () => descriptor.get?.call(window),
      set: (value: unknown) => descriptor.set?.call(window, value),
      configurable: true,
    });
  }
}

for (let proto: object | null = window; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
    if (name === 'constructor' || name.startsWith('_')) continue;
    install(name, descriptor);
  }
}
globals.window ??= window;

/* ---------------------------------------------------------------- vitest's vi, where bun lacks it */

type Factory = (importOriginal: () => Promise<unknown>) => unknown;

/** The file that called into this module (a test file): the base of its relative specifiers. */
function callerFile(): string {
  const here = fileURLToPath(import.meta.url);
  for (const line of (new Error().stack ?? '').split('\n').slice(1)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(line.trim());
    const file = match?.[1]?.startsWith('file://') ? fileURLToPath(match[1]) : match?.[1];
    if (file && file !== here) return file;
  }
  throw new Error('vi.mock: cannot tell which file called it');
}

const pendingMocks: Promise<unknown>[] = [];

/** vitest's `vi.mock(path, factory)`: the factory may spread `await importOriginal()`. */
function mockModule(specifier: string, factory?: Factory): void {
  const path = Bun.resolveSync(specifier, dirname(callerFile()));
  // What the module exported before the mock (bun updates a mocked module's bindings in place).
  const original = { ...(require(path) as Record<string, unknown>) };
  const mocked = Promise.resolve(factory ? factory(async () => original) : {});
  pendingMocks.push(mocked);
  void mock.module(path, () => mocked as Promise<Record<string, unknown>>);
  // Module mocks outlive the file in bun: the next file gets the real module back.
  afterAll(() => void mock.module(path, () => original));
}

/** vitest's `vi.waitFor`: runs `check` until it stops throwing (or the time is up). */
async function waitFor<T>(
  check: () => T | Promise<T>,
  options: number | { timeout?: number; interval?: number } = {},
): Promise<T> {
  const { timeout = 1000, interval = 50 } = typeof options === 'number' ? { timeout: options } : options;
  const until = performance.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (performance.now() >= until) throw error;
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  }
}

/**
 * vitest's `restoreMocks`: before each test, spies made through `vi.spyOn` are restored and
 * mocks made through `vi.fn` start afresh (no calls, their first implementation).
 */
const spies = new Set<{ mockRestore(): void }>();
const fns = new Map<ReturnType<typeof vi.fn>, ((...args: never[]) => unknown) | undefined>();
const spyOn = vi.spyOn.bind(vi);
const fn = vi.fn.bind(vi);

Object.assign(vi, {
  hoisted: <T>(make: () => T): T => make(),
  mock: mockModule,
  setSystemTime: (now: number | Date) => jest.setSystemTime(now),
  waitFor,
  fn: ((implementation?: (...args: never[]) => unknown) => {
    const made = fn(implementation);
    fns.set(made, implementation);
    return made;
  }) as typeof vi.fn,
  spyOn: ((object: Record<string, () => unknown>, method: string) => {
    const spy = spyOn(object, method);
    spies.add(spy);
    return spy;
  }) as unknown as typeof vi.spyOn,
});

beforeAll(async () => {
  await Promise.all(pendingMocks.splice(0));
});

beforeEach(() => {
  for (const spy of spies) spy.mockRestore();
  spies.clear();
  for (const [made, implementation] of fns) {
    made.mockReset();
    if (implementation) made.mockImplementation(implementation);
  }
});
