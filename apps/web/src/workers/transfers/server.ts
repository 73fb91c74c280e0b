/**
 * The upload endpoints of docs/protocol.md ("Part protocol") as the transfers use them: create
 * (with the whole ciphertext of a one-part file), status, part, complete and abort.
 */
import { withRetries } from '../../model/transfer-plan.ts';
import { statusError } from './errors.ts';

export async function postUpload(metadata: Record<string, unknown>, file: Blob | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('metadata', JSON.stringify(metadata));
  if (file) form.set('file', file, 'blob');
  const response = await fetch('/api/upload', { method: 'POST', body: form, credentials: 'same-origin', signal });
  if (!response.ok) throw statusError(response.status);
  return (await response.json()) as Record<string, unknown>;
}

export async function uploadStatus(uploadId: string): Promise<{ received: number[]; parts: number } | undefined> {
  const response = await fetch(`/api/upload/${uploadId}`, { credentials: 'same-origin' });
  if (response.status === 404) return undefined;
  if (!response.ok) throw statusError(response.status);
  const body = (await response.json()) as { received: number[]; parts: number };
  return { received: body.received, parts: body.parts };
}

export async function abortOnServer(uploadId: string): Promise<void> {
  await fetch(`/api/upload/${uploadId}`, { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
}

export async function sendPart(uploadId: string, n: number, body: Blob | Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<void> {
  const response = await withRetries(
    () =>
      fetch(`/api/upload/${uploadId}/part/${n}`, {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/octet-stream' },
        credentials: 'same-origin',
        signal,
      }),
    { signal },
  );
  if (!response.ok) throw statusError(response.status);
}

/** POST /api/upload/{uploadId}/complete, retried like a part. */
export async function completeUpload(uploadId: string, signal: AbortSignal): Promise<void> {
  const response = await withRetries(
    () => fetch(`/api/upload/${uploadId}/complete`, { method: 'POST', credentials: 'same-origin', signal }),
    { signal },
  );
  if (!response.ok) throw statusError(response.status);
}
