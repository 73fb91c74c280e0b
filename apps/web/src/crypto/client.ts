/**
 * The web app's only door to @sealbox/crypto: every call runs in the crypto
 * worker, off the UI thread, and keys stay there.
 */
import type { CryptoErrorCode } from '@sealbox/crypto';
import type { CryptoMethods } from '../workers/crypto.worker.ts';
import { lazyWorker } from '../lib/lazy-worker.ts';
import { RpcError } from '../lib/worker-rpc.ts';

export type { CryptoMethods, KeyHandle } from '../workers/crypto.worker.ts';
export { RpcError } from '../lib/worker-rpc.ts';
export { isWorkerFailure } from '../lib/lazy-worker.ts';
export { lacksSecureContext } from './secure-context.ts';

/** Started lazily: pages that never touch crypto never pay for the worker. */
export const cryptoWorker = lazyWorker<CryptoMethods>(
  // This exact `new Worker(new URL(...), { type: 'module' })` shape is what makes
  // Vite emit the worker as its own same-origin file (CSP: worker-src 'self').
  () => new Worker(new URL('../workers/crypto.worker.ts', import.meta.url), { type: 'module', name: 'sealbox-crypto' }),
  'Crypto worker failed',
);

/** True when `error` came from a CryptoError with this code (codes survive the worker boundary). */
export function hasCryptoCode(error: unknown, code: CryptoErrorCode): boolean {
  return error instanceof RpcError && error.code === code;
}

export type { LoginLookup, SealedAccountInput } from '../workers/crypto.worker.ts';
export type { KdfParams, Registration } from '@sealbox/crypto';

/**
 * Starts the worker and compiles argon2id ahead of need (the login page calls this on
 * mount), so the first sign-in click runs at full speed. Never rejects.
 */
export function warmCrypto(): Promise<void> {
  return cryptoWorker.call('warm').catch(() => undefined);
}

/** The message of a crypto failure a person can act on, by its code. */
export function describeCryptoError(error: unknown): string | undefined {
  if (!(error instanceof RpcError)) return undefined;
  switch (error.code) {
    case 'DECRYPT_FAILED':
      return 'Your keys could not be unlocked with this password.';
    case 'KEY_CHANGED':
      return 'The server returned public keys that are not your own.';
    case 'KDF_TOO_WEAK':
      return 'The server asked for weaker password protection than this app accepts.';
    case 'BAD_INPUT':
      return 'The server sent malformed account data.';
    case 'UNSUPPORTED':
      return 'This browser lacks a cryptographic feature Sealbox needs.';
    default:
      return undefined;
  }
}
