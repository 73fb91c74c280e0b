/**
 * Upload, inside the crypto worker (docs/protocol.md "Files and uploads": never on the UI thread):
 * file.stream() -> encryptBody (reading the file straight into its chunks) -> per-part
 * fingerprint of the chunks' tags (parts.ts, recorded before the part is sent) -> cut at
 * PART_BYTES into reusable OPFS part files (part-files.ts: an
 * ArrayBuffer body would stay in the renderer's memory) -> up to PARTS_IN_FLIGHT PUTs, each
 * retried. A ciphertext of one part goes in POST /api/upload's `file` field instead.
 */
import {
  CHUNK,
  TAG_BYTES,
  createEncryptStream,
  encryptBody,
  encryptMime,
  encryptName,
  newFileNonce,
  newItemId,
  newItemKey,
  toBase64,
  wrapItemKey,
} from '@sealbox/crypto';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { PARTS_IN_FLIGHT, cipherLengthOfPart, planParts, type PartGeometry } from '../../model/transfer-plan.ts';
import { type BrowseScope, checkedScope, linkIdOf } from '../../model/browse-scope.ts';
import type { UploadEvent, UploadRequest, UploadResult } from '../../model/transfers.ts';
import { itemKey, wrappingKeyFor } from '../key-rings.ts';
import { openPartFiles, type PartSlot } from '../part-files.ts';
import { deleteRecord, putRecord, recordPartFingerprint, recordScope, type UploadRecord } from '../upload-records.ts';
import { TransferError } from './errors.ts';
import { geometryOf, partFingerprints } from './parts.ts';
import { currentUserId, forgetUpload, tryResume } from './resume.ts';
import { completeUpload, postUpload, sendPart } from './server.ts';

/**
 * Posts progress at most every 500 ms (and always for phase changes and the end). Each event
 * re-renders the upload overlay: at every 100 ms that cost the page ~1 CPU-second per GiB
 * (main thread, compositor, GPU) on a machine where the upload is CPU-bound.
 */
function progressReporter(port: MessagePort | undefined) {
  let last = 0;
  let lastPhase = '';
  return (event: UploadEvent, force = false) => {
    if (!port) return;
    const now = performance.now();
    const phaseChanged = event.type !== 'progress' || event.phase !== lastPhase;
    if (!force && !phaseChanged && now - last < 500) return;
    last = now;
    if (event.type === 'progress') lastPhase = event.phase;
    port.postMessage(event);
  };
}

/** Where an upload of a file of geometry `g` stands: plaintext encrypted and ciphertext the server has. */
function progressOf(
  g: Pick<PartGeometry, 'plainSize' | 'cipherSize'>,
  phase: 'encrypting' | 'uploading',
  encrypted: number,
  sent: number,
): UploadEvent {
  return { type: 'progress', phase, encrypted, sent, plainSize: g.plainSize, cipherSize: g.cipherSize };
}

/** Ongoing uploads by item id, for cancel from the page. */
export const running = new Map<string, AbortController>();

async function sealMetadata(
  scope: BrowseScope,
  id: string,
  parentId: string | null,
  key: Uint8Array,
  name: string,
  type: string,
) {
  const wrapping = await wrappingKeyFor(scope, parentId);
  const [sealedName, sealedMime, wrapped] = await Promise.all([
    encryptName(key, id, name),
    encryptMime(key, id, type),
    wrapItemKey(wrapping, id, key),
  ]);
  return { ...sealedName, ...sealedMime, ...wrapped };
}

/**
 * What POST /api/upload is sent for new content, with the item's id and K: a new item (a new
 * K, its name and mime sealed and K wrapped under the folder's key), or a new version of the file
 * `versionOf` (docs/protocol.md "Versions": the file's own K from the scope's ring, a copy, since
 * the record's is wiped; the mime sealed under it for that id; nothing else changes).
 * Either way under a fresh fileNonce: a (K, fileNonce) pair is never used twice.
 */
async function newContent(
  request: UploadRequest,
  scope: BrowseScope,
  parentId: string | null,
  name: string,
  type: string,
  cipherSize: number,
) {
  const fileNonce = newFileNonce();
  if (request.versionOf) {
    const id = request.versionOf;
    const key = new Uint8Array(itemKey(scope, id));
    const sealedMime = await encryptMime(key, id, type);
    return { id, key, fileNonce, metadata: { versionOf: id, fileNonce: toBase64(fileNonce), size: cipherSize, ...sealedMime } };
  }
  const id = newItemId();
  const key = newItemKey();
  const sealed = await sealMetadata(scope, id, parentId, key, name, type);
  return {
    id,
    key,
    fileNonce,
    metadata: { id, parentId, isDirectory: false, ...sealed, fileNonce: toBase64(fileNonce), size: cipherSize },
  };
}

/**
 * Encrypts from the first missing part to the end and sends the parts the server lacks.
 * Parts it already has are re-encrypted (identical bytes: same key, nonce and plaintext,
 * which the hashes proved) only when they sit after a missing one, and are not sent.
 */
async function sendParts(
  file: File,
  record: UploadRecord,
  received: number[],
  report: ReturnType<typeof progressReporter>,
  signal: AbortSignal,
): Promise<number> {
  const g = geometryOf(record.size);
  const plan = planParts(g, received, CHUNK);
  if (plan.kind !== 'parts') throw new Error('not a multi-part upload');
  const toSend = new Set(plan.send);
  let sentBytes = 0;
  for (const n of received) sentBytes += cipherLengthOfPart(g, n);
  let encrypted = plan.startByte;
  if (toSend.size === 0) return 0;

  const fingerprints = partFingerprints(g, plan.startPart, toSend, (n, fingerprint) =>
    recordPartFingerprint(record.uploadId, n, fingerprint),
  );
  const source = (plan.startByte === 0 ? file : file.slice(plan.startByte)).stream();
  const reader = encryptBody(source, record.key, record.fileNonce, { startChunk: plan.startChunk }).getReader();
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', stop, { once: true });

  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let partsSent = 0;
  const launch = (n: number, slot: PartSlot, body: Blob | Uint8Array<ArrayBuffer>) => {
    const size = body instanceof Blob ? body.size : body.length;
    const task = (async () => {
      await fingerprints.recorded(n);
      await sendPart(recordScope(record), record.uploadId, n, body, signal);
      sentBytes += size;
      partsSent++;
      report(progressOf(g, 'uploading', encrypted, sentBytes));
    })();
    const tracked = task.then(
      () => {
        slot.release();
        inFlight.delete(tracked);
      },
      (error) => {
        slot.release();
        inFlight.delete(tracked);
        failure ??= error;
      },
    );
    inFlight.add(tracked);
  };

  // PARTS_IN_FLIGHT slots sending and one filling.
  const files = await openPartFiles(record.uploadId, PARTS_IN_FLIGHT + 1);
  let part = plan.startPart;
  let length = cipherLengthOfPart(g, part);
  let slot: PartSlot | undefined;
  let fill = 0;
  try {
    for (;;) {
      if (failure) throw failure;
      const { done, value: read } = await reader.read();
      if (done) break;
      // One whole chunk of fresh WebCrypto output, so backed by a plain ArrayBuffer (the
      // stream's type is wider).
      const value = read as Uint8Array<ArrayBuffer>;
      fingerprints.push(value);
      encrypted += value.length - TAG_BYTES;
      report(progressOf(g, sentBytes > 0 ? 'uploading' : 'encrypting', encrypted, sentBytes));
      let offset = 0;
      while (offset < value.length) {
        if (part >= plan.total) throw new TransferError('SHORT_READ', 'The file changed while it was being read.');
        const n = Math.min(length - fill, value.length - offset);
        // Parts the server has are encrypted only to reach the later ones; nothing is kept.
        if (toSend.has(part)) {
          slot ??= await files.take(length);
          slot.write(n === value.length ? value : value.subarray(offset, offset + n));
        }
        fill += n;
        offset += n;
        if (fill === length) {
          if (slot) {
            const body = await slot.finish();
            while (inFlight.size >= PARTS_IN_FLIGHT && !failure) await Promise.race(inFlight);
            if (failure) {
              slot.release();
              throw failure;
            }
            launch(part, slot, body);
            slot = undefined;
          }
          part++;
          fill = 0;
          length = part < plan.total ? cipherLengthOfPart(g, part) : 0;
        }
      }
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
  } catch (error) {
    await reader.cancel().catch(() => {});
    await Promise.allSettled(inFlight);
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
    await files.dispose();
  }
  if (part !== plan.total) throw new TransferError('SHORT_READ', 'The file changed while it was being read.');
  return partsSent;
}

export async function uploadFile(request: UploadRequest, port: MessagePort | undefined): Promise<UploadResult> {
  const { file } = request;
  const name = request.name ?? file.name;
  const report = progressReporter(port);
  const controller = new AbortController();
  const signal = controller.signal;
  port?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string })?.type === 'cancel')
      controller.abort(new TransferError('CANCELLED', 'Upload cancelled'));
  });
  port?.start();

  let prepared = request.resumeUploadId ? await tryResume(request.resumeUploadId, file) : undefined;
  const parentId = prepared?.record.parentId ?? request.parentId;
  const scope = prepared ? recordScope(prepared.record) : checkedScope(request.scope);
  const linkId = linkIdOf(scope);
  const g = geometryOf(file.size);
  report(progressOf(g, 'encrypting', 0, 0), true);

  let id: string;
  try {
    if (!prepared) {
      const type = file.type || 'application/octet-stream';
      const content = await newContent(request, scope, parentId, name, type, g.cipherSize);
      const { key, fileNonce, metadata } = content;
      id = content.id;
      running.set(id, controller);

      if (planParts(g, [], CHUNK).kind === 'single') {
        // One part: encrypt into memory (at most PART_BYTES) and send it with the metadata.
        const blob = await new Response(file.stream().pipeThrough(createEncryptStream(key, fileNonce), { signal })).blob();
        report(progressOf(g, 'uploading', g.plainSize, 0), true);
        await postUpload(scope, metadata, blob, signal);
        key.fill(0);
        report(progressOf(g, 'uploading', g.plainSize, g.cipherSize), true);
        await rememberUploaded(id);
        return { id, size: g.cipherSize, resumed: false, partsSent: 1 };
      }

      const created = await postUpload(scope, metadata, undefined, signal);
      const uploadId = String(created.uploadId);
      const now = Date.now();
      const record: UploadRecord = {
        uploadId,
        id,
        parentId,
        key,
        fileNonce,
        name,
        type,
        size: file.size,
        lastModified: file.lastModified,
        cipherSize: g.cipherSize,
        partHashes: {},
        userId: await currentUserId(),
        scope,
        ...(linkId ? { linkId } : {}),
        createdAt: now,
        updatedAt: now,
      };
      await putRecord(record);
      prepared = { record, received: [], resumed: false };
      report({ type: 'started', uploadId, id }, true);
    } else {
      id = prepared.record.id;
      running.set(id, controller);
      report({ type: 'started', uploadId: prepared.record.uploadId, id }, true);
    }

    const { record } = prepared;
    let partsSent: number;
    try {
      partsSent = await sendParts(file, record, prepared.received, report, signal);
      await completeUpload(recordScope(record), record.uploadId, signal);
    } catch (error) {
      // Quota, size limit, a vanished upload or a cancel end it for good; a network failure
      // keeps the record so it can resume later.
      const fatal = signal.aborted || (error instanceof TransferError && !error.code.startsWith('HTTP_5'));
      if (fatal) await forgetUpload(record.uploadId);
      throw error;
    }
    await deleteRecord(record.uploadId);
    record.key.fill(0);
    report(progressOf(g, 'uploading', g.plainSize, g.cipherSize), true);
    await rememberUploaded(id);
    return { id, size: g.cipherSize, resumed: prepared.resumed, partsSent };
  } catch (error) {
    if (signal.aborted) throw new TransferError('CANCELLED', 'Upload cancelled');
    if (error instanceof TransferError || error instanceof HttpStatusError) throw error;
    if (error instanceof TypeError) throw new TransferError('NETWORK', 'Network error while uploading. Please try again.');
    throw error;
  } finally {
    // Two uploads of one file (new versions) share its id: each forgets only its own entry.
    if (running.get(id!) === controller) running.delete(id!);
    port?.close();
  }
}

/**
 * The key tree learns new items when their folder is listed again (openItems); nothing to do
 * here beyond that. Kept as the one place to hook a direct registration in.
 */
async function rememberUploaded(_id: string): Promise<void> {}
