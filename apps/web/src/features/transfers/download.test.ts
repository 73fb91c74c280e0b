import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import { SW_CANCELLED_MESSAGE, SW_PROGRESS_MESSAGE } from '../../model/transfers.ts';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const { downloadItems } = await import('./download.ts');
const store = await import('./transfer-store.ts');

/** A stand-in for navigator.serviceWorker: the page's messages to the worker are recorded. */
const worker = { postMessage: vi.fn() };
const container = Object.assign(new EventTarget(), {
  register: async () => ({ active: worker }),
  ready: Promise.resolve({ active: worker }),
});
const original = Object.getOwnPropertyDescriptor(navigator, 'serviceWorker');

beforeAll(() => {
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  call.mockImplementation(async (method: string, _scope: unknown, targets: Array<{ name: string }>) =>
    method === 'prepareDownload' ? { name: targets[0]!.name } : undefined,
  );
});

afterAll(() => {
  if (original) Object.defineProperty(navigator, 'serviceWorker', original);
  else Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Starts a download of one file; resolves with its row key and service worker token. */
async function start(name: string): Promise<{ key: string; token: string }> {
  worker.postMessage.mockClear();
  expect(await downloadItems([{ id: `id-${name}`, name, isDirectory: false }], OWN_SCOPE)).toBe(true);
  const row = store.getState().rows.at(-1)!;
  expect(row.status).toBe('downloading');
  const token = (worker.postMessage.mock.calls[0]![0] as { token: string }).token;
  return { key: row.key, token };
}

const fromWorker = (data: object) => container.dispatchEvent(new MessageEvent('message', { data }));
const statusOf = (key: string) => store.rowOf(key)?.status;

describe('downloads in the transfers panel', () => {
  it('a download longer than ten minutes still ends its row', async () => {
    vi.useFakeTimers();
    const { key, token } = await start('big.iso');
    vi.advanceTimersByTime(30 * 60_000);
    fromWorker({ type: SW_PROGRESS_MESSAGE, token, sent: 5, total: 10 });
    expect(store.rowOf(key)?.fraction).toBe(0.5);
    fromWorker({ type: SW_PROGRESS_MESSAGE, token, sent: 10, total: 10, done: true });
    expect(statusOf(key)).toBe('done');
    vi.useRealTimers();
  });

  it("a download cancelled in the browser's downloads list is cancelled in the panel", async () => {
    const { key, token } = await start('a.txt');
    fromWorker({ type: SW_CANCELLED_MESSAGE, token });
    expect(statusOf(key)).toBe('cancelled');
  });
});
