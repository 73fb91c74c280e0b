/**
 * The crypto worker: all key material lives here. The UI gets opaque handles
 * (DESIGN.md 2), so a bug or an injected script on the page cannot read raw keys
 * off React state.
 */
import { decodeLinkKey, fingerprint, formatFingerprint, sha256Hex } from '@sealbox/crypto';
import { exposeRpc, type RpcEndpoint } from '../lib/worker-rpc.ts';

/** Opaque reference to a key held by this worker. */
export interface KeyHandle {
  handle: string;
}

const keys = new Map<string, Uint8Array>();

function holdKey(key: Uint8Array): KeyHandle {
  const handle = crypto.randomUUID();
  keys.set(handle, key);
  return { handle };
}

export const cryptoMethods = {
  sha256Hex(bytes: Uint8Array): Promise<string> {
    return sha256Hex(bytes);
  },

  /** A user's fingerprint (both public keys, base64 SPKI) in the grouped form shown to people. */
  async fingerprint(publicKey: string, signingPublicKey: string): Promise<string> {
    return formatFingerprint(await fingerprint(publicKey, signingPublicKey));
  },

  /**
   * Decodes a share link's URL fragment (without '#') and keeps the item key here.
   * Rejects with code BAD_LINK_KEY unless it decodes to exactly 32 bytes.
   */
  openLinkKey(fragment: string): KeyHandle {
    return holdKey(decodeLinkKey(fragment));
  },

  forgetKey(handle: string): void {
    keys.get(handle)?.fill(0);
    keys.delete(handle);
  },
};

export type CryptoMethods = typeof cryptoMethods;

exposeRpc(cryptoMethods, self as unknown as RpcEndpoint);
