/**
 * The previewer's bytes (docs/product.md "States" "Previewer: loads the encrypted file, decrypts it
 * locally"): the whole file, decrypted here in the crypto worker under the item's K (held since its
 * listing was opened, items.ts) and handed to the page as a Blob. The key never leaves this worker.
 *
 * The nonce and size come from a fresh listing of the item (as downloads do), the ciphertext
 * from GET /api/file/data/{id} (with the link id for a link holder), and every chunk is
 * authenticated by decryptBody (index, last flag, tag): a tampered, reordered or
 * truncated blob rejects with DECRYPT_FAILED or TRUNCATED, and the length decrypted must equal
 * the size recorded. Errors carry a code the page maps to docs/product.md "Messages" texts:
 * NO_KEY, NO_NONCE, NOT_FOUND, HTTP_<status>, DECRYPT_FAILED, TRUNCATED, SIZE_MISMATCH.
 *
 * With a `versionId` the bytes are those of an earlier version (Info's Versions): the same K, the
 * version's own nonce and size (docs/protocol.md "Versions"), fetched from its own data URL.
 */
import { decryptBody, fromBase64, plaintextSize } from '@sealbox/crypto';
import { bytes } from './api.ts';
import { CodedError } from './coded-error.ts';
import { decryptHead } from './file-head.ts';
import type { BrowseScope } from '../model/browse-scope.ts';
import { itemKey } from './key-rings.ts';
import { getListing } from './listing-fetch.ts';
import { versionContent } from './transfers/versions.ts';

const previewError = (code: string, message: string) => new CodedError('PreviewError', code, message);

/** The item (or its version `versionId`) as the server records it now: its file nonce and plaintext size. */
async function fileFacts(
  scope: BrowseScope,
  itemId: string,
  versionId: string | undefined,
): Promise<{ fileNonce: Uint8Array; size: number }> {
  const { root } = await getListing(scope, itemId, 1, 1, 0, previewError);
  if (!root || root.id !== itemId || root.isDirectory) throw previewError('NOT_FOUND', 'File not found');
  if (!root.fileNonce) throw previewError('NO_NONCE', 'File nonce not found');
  if (versionId) return versionContent(scope, itemId, versionId);
  let size: number;
  try {
    size = plaintextSize(root.size);
  } catch {
    throw previewError('SIZE_MISMATCH', 'The recorded size is not one a file can have');
  }
  return { fileNonce: fromBase64(root.fileNonce, 'fileNonce'), size };
}

/** A copy of the item's K from `scope`'s ring (the caller wipes it), or NO_KEY. */
function keyCopy(scope: BrowseScope, itemId: string): Uint8Array {
  try {
    return new Uint8Array(itemKey(scope, itemId));
  } catch {
    throw previewError('NO_KEY', 'File encryption key not found');
  }
}

/**
 * The decrypted contents of file `itemId` (its key opened in `scope`'s ring by an earlier
 * listing), typed `type` (the decrypted mime type the page knows, or none).
 */
async function decryptItem(scope: BrowseScope, itemId: string, type?: string, versionId?: string): Promise<Blob> {
  const raw = keyCopy(scope, itemId);
  try {
    const { fileNonce, size } = await fileFacts(scope, itemId, versionId);
    const response = await bytes.fileData(scope, itemId, versionId ? { versionId } : {});
    if (!response.ok || !response.body) throw previewError(`HTTP_${response.status}`, `Download failed (${response.status})`);
    const parts: Uint8Array[] = [];
    let length = 0;
    const reader = decryptBody(response.body, raw, fileNonce).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      length += value.length;
      if (length > size) {
        await reader.cancel();
        throw previewError('SIZE_MISMATCH', 'The file is longer than recorded');
      }
    }
    if (length !== size) throw previewError('SIZE_MISMATCH', 'The file is shorter than recorded');
    return new Blob(parts as BlobPart[], type ? { type } : {});
  } finally {
    raw.fill(0);
  }
}

/**
 * The decrypted first `limit` bytes of file `itemId` (or the whole file when it is smaller): only
 * the chunks that cover them are fetched (file-head.ts). For a view that shows a file's beginning.
 */
async function decryptItemHead(
  scope: BrowseScope,
  itemId: string,
  limit: number,
  type?: string,
  versionId?: string,
): Promise<Blob> {
  const raw = keyCopy(scope, itemId);
  try {
    const { fileNonce, size } = await fileFacts(scope, itemId, versionId);
    const options = type ? { type } : {};
    if (size === 0 || limit <= 0) return new Blob([], options);
    const target = { id: itemId, key: raw, fileNonce, plainSize: size, scope, versionId };
    const head = await decryptHead(target, limit, previewError);
    return new Blob([head.subarray(0, Math.min(head.length, Math.ceil(limit)))], options);
  } finally {
    raw.fill(0);
  }
}

/** The RPC surface (spread into the crypto worker's methods). */
export const previewMethods = {
  decryptItem,
  decryptItemHead,
};
