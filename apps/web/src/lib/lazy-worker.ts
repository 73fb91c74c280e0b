/**
 * A worker started on first call and started afresh after it fails: its `call` is the typed RPC
 * of lib/worker-rpc.ts. A worker that failed to load (or crashed) would otherwise leave every
 * call pending forever; what it held is gone with it and callers re-open what they need.
 */
import { createRpcClient, RpcError, type RpcClient, type RpcEndpoint, type RpcMethods } from './worker-rpc.ts';

/** The code of a call rejected because its worker did not start or died (isWorkerFailure). */
export const WORKER_FAILED = 'WORKER_FAILED';

/**
 * How long a new worker may take to say RPC_READY. Chromium fires no 'error' for some scripts
 * that never load (e.g. a module worker whose file an upgrade removed), so silence counts too.
 */
export const WORKER_START_MS = 10_000;

/** True when `error` rejected a call because the worker could not start or died. */
export function isWorkerFailure(error: unknown): boolean {
  return error instanceof RpcError && error.code === WORKER_FAILED;
}

export function lazyWorker<M extends RpcMethods>(
  start: () => Worker,
  failure: string,
  startMs = WORKER_START_MS,
): Pick<RpcClient<M>, 'call'> & { start(): void } {
  let client: RpcClient<M> | undefined;
  const spawn = (): RpcClient<M> => {
    const worker = start();
    const rpc = createRpcClient<M>(worker as RpcEndpoint);
    const fail = (message: string) => {
      clearTimeout(silence);
      rpc.failPending(new RpcError(message, WORKER_FAILED));
      rpc.close();
      if (client === rpc) client = undefined;
      worker.terminate();
    };
    const silence = setTimeout(() => fail(failure), startMs);
    const started = () => {
      clearTimeout(silence);
      worker.removeEventListener('message', started);
    };
    worker.addEventListener('message', started);
    worker.addEventListener('error', (event) => fail(event.message || failure));
    return rpc;
  };
  return {
    /**
     * Starts the worker now, ahead of its first call, so its script loads and boots while the
     * page renders. A worker that cannot start is left to fail at that call, where it is shown.
     */
    start() {
      try {
        client ??= spawn();
      } catch {
        // The first call tries again and reports it.
      }
    },
    call(method, ...args) {
      try {
        client ??= spawn();
      } catch (error) {
        // e.g. a CSP refusal: surface it as a failed call rather than a render crash.
        return Promise.reject(error instanceof Error ? error : new RpcError(String(error), WORKER_FAILED));
      }
      return client.call(method, ...args);
    },
  };
}
