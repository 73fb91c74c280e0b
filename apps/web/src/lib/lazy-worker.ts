/**
 * A worker started on first call and started afresh after it fails: its `call` is the typed RPC
 * of lib/worker-rpc.ts. A worker that failed to load (or crashed) would otherwise leave every
 * call pending forever; what it held is gone with it and callers re-open what they need.
 */
import { createRpcClient, RpcError, type RpcClient, type RpcEndpoint, type RpcMethods } from './worker-rpc.ts';

export function lazyWorker<M extends RpcMethods>(start: () => Worker, failure: string): Pick<RpcClient<M>, 'call'> {
  let client: RpcClient<M> | undefined;
  const spawn = (): RpcClient<M> => {
    const worker = start();
    const rpc = createRpcClient<M>(worker as RpcEndpoint);
    worker.addEventListener('error', (event) => {
      rpc.failPending(new RpcError(event.message || failure, 'WORKER_FAILED'));
      rpc.close();
      client = undefined;
      worker.terminate();
    });
    return rpc;
  };
  return {
    call(method, ...args) {
      try {
        client ??= spawn();
      } catch (error) {
        // e.g. a CSP refusal: surface it as a failed call rather than a render crash.
        return Promise.reject(error instanceof Error ? error : new RpcError(String(error), 'WORKER_FAILED'));
      }
      return client.call(method, ...args);
    },
  };
}
