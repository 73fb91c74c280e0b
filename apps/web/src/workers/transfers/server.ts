/**
 * The upload endpoints of docs/protocol.md ("Part protocol") as the transfers use them: create
 * (with the whole ciphertext of a one-part file), status, part, complete and abort. JSON calls
 * go through the Eden client, parts through the byte calls; an answer that is not 2xx becomes a
 * TransferError, a request that got no answer throws as fetch does (network, cancel).
 */
import { answered } from '../../lib/api-client.ts';
import { type BrowseScope, scopeQuery } from '../../model/browse-scope.ts';
import { withRetries } from '../../model/transfer-plan.ts';
import { api, bytes } from '../api.ts';
import { statusError } from './errors.ts';

/** The query of an upload call made in `scope`: `?linkId=` as a share link's holder. */
const linkQuery = (scope: BrowseScope) => (scope.kind === 'link' ? { query: scopeQuery(scope) } : {});

/** POST /api/upload: the item's metadata, with the whole ciphertext when it fits one part. */
export async function postUpload(
  scope: BrowseScope,
  metadata: Record<string, unknown>,
  file: Blob | undefined,
  signal: AbortSignal,
): Promise<{ id: string; uploadId?: string }> {
  const body = { metadata: JSON.stringify(metadata), ...(file ? { file: new File([file], 'blob') } : {}) };
  const { data, error, status, response } = await answered(api.api.upload.post(body, { fetch: { signal }, ...linkQuery(scope) }));
  if (error) throw statusError(status, response.headers.get('retry-after'));
  return data;
}

/** GET /api/upload/{uploadId}: the parts the server has; undefined when the upload is gone. */
export async function uploadStatus(
  scope: BrowseScope,
  uploadId: string,
): Promise<{ received: number[]; parts: number } | undefined> {
  const { data, error, status, response } = await answered(api.api.upload({ uploadId }).get(linkQuery(scope)));
  if (status === 404) return undefined;
  if (error) throw statusError(status, response.headers.get('retry-after'));
  return { received: data.received, parts: data.parts };
}

/** DELETE /api/upload/{uploadId}: the server frees what it holds (best effort). */
export async function abortOnServer(scope: BrowseScope, uploadId: string): Promise<void> {
  await api.api
    .upload({ uploadId })
    .delete(undefined, linkQuery(scope))
    .catch(() => undefined);
}

/** PUT of one part, retried (plan.ts's policy). */
export async function sendPart(
  scope: BrowseScope,
  uploadId: string,
  n: number,
  body: Blob | Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
): Promise<void> {
  const response = await withRetries(() => bytes.putPart(scope, uploadId, n, body, signal), { signal });
  if (!response.ok) throw statusError(response.status, response.headers.get('retry-after'));
}

/** POST /api/upload/{uploadId}/complete, retried like a part. */
export async function completeUpload(scope: BrowseScope, uploadId: string, signal: AbortSignal): Promise<void> {
  const response = await withRetries(
    async () =>
      (await answered(api.api.upload({ uploadId }).complete.post(undefined, { fetch: { signal }, ...linkQuery(scope) })))
        .response,
    { signal },
  );
  if (!response.ok) throw statusError(response.status, response.headers.get('retry-after'));
}
