/**
 * The upload endpoints of docs/protocol.md ("Part protocol") as the transfers use them: create
 * (with the whole ciphertext of a one-part file), status, part, complete and abort. JSON calls
 * go through the Eden client, parts through the byte calls; an answer that is not 2xx becomes a
 * TransferError, a request that got no answer throws as fetch does (network, cancel).
 */
import { answered } from '../../lib/api-client.ts';
import { withRetries } from '../../model/transfer-plan.ts';
import { api, bytes } from '../api.ts';
import { statusError } from './errors.ts';

/** POST /api/upload: the item's metadata, with the whole ciphertext when it fits one part. */
/** `?linkId=` of a call made as a share link's holder. */
const linkQuery = (linkId: string | undefined) => (linkId ? { query: { linkId } } : {});

export async function postUpload(
  metadata: Record<string, unknown>,
  file: Blob | undefined,
  signal: AbortSignal,
  linkId?: string,
): Promise<{ id: string; uploadId?: string }> {
  const body = { metadata: JSON.stringify(metadata), ...(file ? { file: new File([file], 'blob') } : {}) };
  const { data, error, status, response } = await answered(
    api.api.upload.post(body, { fetch: { signal }, ...linkQuery(linkId) }),
  );
  if (error) throw statusError(status, response.headers.get('retry-after'));
  return data;
}

/** GET /api/upload/{uploadId}: the parts the server has; undefined when the upload is gone. */
export async function uploadStatus(
  uploadId: string,
  linkId?: string,
): Promise<{ received: number[]; parts: number } | undefined> {
  const { data, error, status, response } = await answered(api.api.upload({ uploadId }).get(linkQuery(linkId)));
  if (status === 404) return undefined;
  if (error) throw statusError(status, response.headers.get('retry-after'));
  return { received: data.received, parts: data.parts };
}

/** DELETE /api/upload/{uploadId}: the server frees what it holds (best effort). */
export async function abortOnServer(uploadId: string, linkId?: string): Promise<void> {
  await api.api
    .upload({ uploadId })
    .delete(undefined, linkQuery(linkId))
    .catch(() => undefined);
}

/** PUT of one part, retried (plan.ts's policy). */
export async function sendPart(
  uploadId: string,
  n: number,
  body: Blob | Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
  linkId?: string,
): Promise<void> {
  const response = await withRetries(() => bytes.putPart(uploadId, n, body, signal, linkId), { signal });
  if (!response.ok) throw statusError(response.status, response.headers.get('retry-after'));
}

/** POST /api/upload/{uploadId}/complete, retried like a part. */
export async function completeUpload(uploadId: string, signal: AbortSignal, linkId?: string): Promise<void> {
  const response = await withRetries(
    async () =>
      (await answered(api.api.upload({ uploadId }).complete.post(undefined, { fetch: { signal }, ...linkQuery(linkId) })))
        .response,
    { signal },
  );
  if (!response.ok) throw statusError(response.status, response.headers.get('retry-after'));
}
