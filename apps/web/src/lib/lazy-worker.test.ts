import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lacksSecureContext } from '../crypto/secure-context.ts';
import { isWorkerFailure, lazyWorker, WORKER_START_MS } from './lazy-worker.ts';
import { RPC_READY, RpcError } from './worker-rpc.ts';

/** A worker that never loads unless told: it records requests and answers only when asked. */
class SilentWorker extends EventTarget {
  readonly requests: Array<{ id: number; method: string }> = [];
  terminated = false;
  postMessage(message: { id: number; method: string }) {
    this.requests.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  say(data: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

function start(workers: SilentWorker[]) {
  return () => {
    const worker = new SilentWorker();
    workers.push(worker);
    return worker as unknown as Worker;
  };
}

describe('lazyWorker start', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fails the pending call when the worker stays silent past the bound, then starts afresh', async () => {
    const workers: SilentWorker[] = [];
    const client = lazyWorker<{ warm: () => void }>(start(workers), 'Crypto worker failed');
    const call = client.call('warm');
    const outcome = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(WORKER_START_MS);
    const error = await outcome;
    expect(isWorkerFailure(error)).toBe(true);
    expect((error as Error).message).toBe('Crypto worker failed');
    expect(workers[0]!.terminated).toBe(true);

    void client.call('warm').catch(() => undefined);
    expect(workers).toHaveLength(2);
  });

  it('keeps waiting for a slow answer once the worker said it is ready', async () => {
    const workers: SilentWorker[] = [];
    const client = lazyWorker<{ warm: () => number }>(start(workers), 'failed');
    const call = client.call('warm');
    workers[0]!.say(RPC_READY);
    await vi.advanceTimersByTimeAsync(WORKER_START_MS * 3);
    workers[0]!.say({ id: workers[0]!.requests[0]!.id, ok: true, value: 42 });
    expect(await call).toBe(42);
    expect(workers[0]!.terminated).toBe(false);
  });

  it('fails at once on the worker error event', async () => {
    const workers: SilentWorker[] = [];
    const client = lazyWorker<{ warm: () => void }>(start(workers), 'failed');
    const outcome = client.call('warm').catch((error: unknown) => error);
    workers[0]!.dispatchEvent(new Event('error'));
    expect(isWorkerFailure(await outcome)).toBe(true);
  });

  it('start() spawns the worker ahead of its first call, which then uses it; a failed spawn is left to that call', async () => {
    const workers: SilentWorker[] = [];
    const client = lazyWorker<{ warm: () => number }>(start(workers), 'failed');
    client.start();
    client.start();
    expect(workers).toHaveLength(1);
    const call = client.call('warm');
    expect(workers).toHaveLength(1);
    workers[0]!.say(RPC_READY);
    workers[0]!.say({ id: workers[0]!.requests[0]!.id, ok: true, value: 7 });
    expect(await call).toBe(7);

    const refused = lazyWorker<{ warm: () => void }>(() => {
      throw new Error('refused by the CSP');
    }, 'failed');
    expect(() => refused.start()).not.toThrow();
    await expect(refused.call('warm')).rejects.toThrow('refused by the CSP');
  });

  it('tells worker failures from other rejections', () => {
    expect(isWorkerFailure(new RpcError('x', 'DECRYPT_FAILED'))).toBe(false);
    expect(isWorkerFailure(new Error('x'))).toBe(false);
  });
});

describe('lacksSecureContext', () => {
  it('needs both a secure context and crypto.subtle', () => {
    expect(lacksSecureContext({ isSecureContext: true, crypto: { subtle: {} } })).toBe(false);
    expect(lacksSecureContext({ isSecureContext: false, crypto: {} })).toBe(true);
    expect(lacksSecureContext({ isSecureContext: true, crypto: {} })).toBe(true);
    expect(lacksSecureContext({})).toBe(true);
  });
});
