/**
 * A file's earlier versions as a transfer needs them (docs/protocol.md "Versions"): each has its
 * own fileNonce and ciphertext size under the file's K, read from GET /api/file/{id}/versions.
 */
import { fromBase64, plaintextSize } from '@sealbox/crypto';
import { answered } from '../../lib/api-client.ts';
import { type BrowseScope, scopeQuery } from '../../model/browse-scope.ts';
import { api } from '../api.ts';
import { TransferError, statusError } from './errors.ts';

/** The nonce and plaintext size of version `versionId` of file `id`, as the server lists it now. */
export async function versionContent(
  scope: BrowseScope,
  id: string,
  versionId: string,
): Promise<{ fileNonce: Uint8Array; size: number }> {
  const query = scope.kind === 'link' ? { query: scopeQuery(scope) } : {};
  const { data, error, status, response } = await answered(api.api.file({ id }).versions.get(query));
  if (error) throw statusError(status, response.headers.get('retry-after'));
  const version = data.versions.find((v) => v.id === versionId);
  if (!version) throw new TransferError('NOT_FOUND', 'This version is gone: it was deleted or restored meanwhile.');
  return { fileNonce: fromBase64(version.fileNonce, 'fileNonce'), size: plaintextSize(version.size) };
}
