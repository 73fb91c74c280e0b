/**
 * The web app's only door to @sealbox/crypto: every call runs in the crypto
 * worker, off the UI thread, and keys stay there.
 */
import type { CryptoErrorCode } from '@sealbox/crypto';
import type { CryptoMethods } from '../workers/crypto.worker.ts';
import { createRpcClient, RpcError, type RpcClient, type RpcEndpoint } from '../lib/worker-rpc.ts';

export type { CryptoMethods, KeyHandle } from '../workers/crypto.worker.ts';
export { RpcError } from '../lib/worker-rpc.ts';

let client: RpcClient<CryptoMethods> | undefined;

function spawn(): RpcClient<CryptoMethods> {
  // This exact `new Worker(new URL(...), { type: 'module' })` shape is what makes
  // Vite emit the worker as its own same-origin file (CSP: worker-src 'self').
  const worker = new Worker(new URL('../workers/crypto.worker.ts', import.meta.url), {
    type: 'module',
    name: 'sealbox-crypto',
  });
  const rpc = createRpcClient<CryptoMethods>(worker as RpcEndpoint);
  worker.addEventListener('error', (event) => {
    // A worker that failed to load (or crashed) would otherwise leave every call
    // pending forever. Its held keys are gone with it; callers re-open what they need.
    rpc.failPending(new RpcError(event.message || 'Crypto worker failed', 'WORKER_FAILED'));
    rpc.close();
    client = undefined;
    worker.terminate();
  });
  return rpc;
}

/** Started lazily: pages that never touch crypto never pay for the worker. */
export const cryptoWorker: Pick<RpcClient<CryptoMethods>, 'call'> = {
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

/** True when `error` came from a CryptoError with this code (codes survive the worker boundary). */
export function hasCryptoCode(error: unknown, code: CryptoErrorCode): boolean {
  return error instanceof RpcError && error.code === code;
}
