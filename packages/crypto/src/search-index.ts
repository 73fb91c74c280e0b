import type { Bytes } from './bytes.ts';
import { utf8 } from './bytes.ts';

/** docs/protocol.md "Search index": the HKDF info that makes the index key from R. */
export const SEARCH_INDEX_INFO = 'sealbox:v1:search-index';

/**
 * The key that seals the browser's local search index: HKDF-SHA-256 of the account root key R
 * (empty salt, SEARCH_INDEX_INFO), a non-extractable AES-GCM key. Made while R's bytes are in
 * hand (at unlock), so R itself stays an AES key that derives nothing.
 */
export async function deriveSearchIndexKey(root: Bytes): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', root, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(SEARCH_INDEX_INFO) },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}
