/**
 * File transfers, run inside the crypto worker (DESIGN.md 5: never on the UI thread).
 *
 * Upload: file.stream() -> per-part plaintext hash (recorded before the part is sent) ->
 * createEncryptStream -> cut at PART_BYTES into reusable OPFS part files (part-files.ts: an
 * ArrayBuffer body would stay in the renderer's memory) -> up to PARTS_IN_FLIGHT PUTs, each retried.
 * A ciphertext of one part goes in POST /api/upload's `file` field instead.
 *
 * Download: the worker gathers what the service worker needs (item keys, nonces, sizes, the
 * paths of a folder's descendants) and posts it on a MessagePort whose other end the page gave
 * the service worker. Key bytes go worker -> service worker and never through the page's state.
 */
import {
  CHUNK,
  PART_BYTES,
  PART_CHUNKS,
  ciphertextSize,
  createEncryptStream,
  encryptMime,
  encryptName,
  fromBase64,
  newFileNonce,
  newItemId,
  newItemKey,
  plaintextSize,
  toBase64,
  toHex,
  wrapItemKey,
} from '@sealbox/crypto';
import { HttpStatusError } from '../lib/http-status-error.ts';
import {
  PARTS_IN_FLIGHT,
  cipherLengthOfPart,
  decideResume,
  planParts,
  plainRangeOfPart,
  safeSegment,
  uniqueName,
  uploadErrorMessage,
  withRetries,
  type PartGeometry,
} from '../model/transfer-plan.ts';
import type { DownloadEntry, DownloadJob, DownloadTarget, PendingUpload, UploadEvent, UploadRequest, UploadResult } from '../model/transfers.ts';
import type { ServerItem } from '../model/items.ts';
import { itemKey, openItems, wrappingKeyFor } from './items.ts';
import { loadAnyAccount } from './key-store.ts';
import { openPartFiles, type PartSlot } from './part-files.ts';
import { deleteRecord, getRecord, listRecords, putRecord, recordPartHash, type UploadRecord } from './upload-records.ts';
import { CodedError } from './coded-error.ts';
import { getListing } from './listing-fetch.ts';

const PART_PLAIN_BYTES = PART_CHUNKS * CHUNK;

/** An error whose message is fit to show (SPEC 8) and whose code survives the RPC. */
class TransferError extends CodedError {
  constructor(code: string, message: string) {
    super('TransferError', code, message);
  }
}

function statusError(status: number): TransferError {
  const code = status === 402 ? 'NO_SPACE' : status === 405 || status === 413 ? 'TOO_LARGE' : `HTTP_${status}`;
  return new TransferError(code, uploadErrorMessage(status));
}

function geometryOf(plainSize: number): PartGeometry {
  return { plainSize, cipherSize: ciphertextSize(plainSize), partBytes: PART_BYTES, partPlainBytes: PART_PLAIN_BYTES };
}

async function currentUserId(): Promise<string | null> {
  try {
    return (await loadAnyAccount())?.userId ?? null;
  } catch {
    return null;
  }
}

async function sha256HexOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

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

/** Ongoing uploads by item id, for cancel from the page. */
const running = new Map<string, AbortController>();

/* ------------------------------------------------------------------------- upload */

interface Prepared {
  record: UploadRecord;
  /** Parts the server already has (resume), else empty. */
  received: number[];
  resumed: boolean;
}

async function sealMetadata(id: string, parentId: string | null, key: Uint8Array, name: string, type: string) {
  const wrapping = await wrappingKeyFor(parentId);
  const [sealedName, sealedMime, wrapped] = await Promise.all([
    encryptName(key, id, name),
    encryptMime(key, id, type),
    wrapItemKey(wrapping, id, key),
  ]);
  return { ...sealedName, ...sealedMime, ...wrapped };
}

async function postUpload(metadata: Record<string, unknown>, file: Blob | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('metadata', JSON.stringify(metadata));
  if (file) form.set('file', file, 'blob');
  const response = await fetch('/api/upload', { method: 'POST', body: form, credentials: 'same-origin', signal });
  if (!response.ok) throw statusError(response.status);
  return (await response.json()) as Record<string, unknown>;
}

async function uploadStatus(uploadId: string): Promise<{ received: number[]; parts: number } | undefined> {
  const response = await fetch(`/api/upload/${uploadId}`, { credentials: 'same-origin' });
  if (response.status === 404) return undefined;
  if (!response.ok) throw statusError(response.status);
  const body = (await response.json()) as { received: number[]; parts: number };
  return { received: body.received, parts: body.parts };
}

async function abortOnServer(uploadId: string): Promise<void> {
  await fetch(`/api/upload/${uploadId}`, { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
}

/** The picked file's plaintext hash for each part in `parts` (resume check). */
async function hashParts(file: File, g: PartGeometry, parts: number[]): Promise<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const n of parts) {
    const { start, end } = plainRangeOfPart(g, n);
    if (start >= g.plainSize && n > 0) continue;
    out[n] = await sha256HexOf(new Uint8Array(await file.slice(start, end).arrayBuffer()));
  }
  return out;
}

/**
 * A resumable upload, if `uploadId` names one this browser started for the same bytes; undefined
 * when it must start afresh (the record and the server's upload are then deleted).
 */
async function tryResume(uploadId: string, file: File): Promise<Prepared | undefined> {
  const record = await getRecord(uploadId);
  if (!record) return undefined;
  const g = geometryOf(record.size);
  const decision = decideResume(
    record,
    file,
    file.size === record.size ? await hashParts(file, g, Object.keys(record.partHashes).map(Number)) : {},
  );
  const status = decision.resume ? await uploadStatus(uploadId).catch(() => undefined) : undefined;
  if (!decision.resume || !status) {
    await abortOnServer(uploadId);
    await deleteRecord(uploadId);
    return undefined;
  }
  return { record, received: status.received, resumed: true };
}

async function sendPart(uploadId: string, n: number, body: Blob | Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<void> {
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

  // Plaintext tap: SHA-256 of each part's plaintext, recorded before that part is sent.
  const recorded = new Map<number, Promise<void>>();
  let tapPart = plan.startPart;
  let tapLength = plainRangeOfPart(g, tapPart).end - plainRangeOfPart(g, tapPart).start;
  let tapBuffer = new Uint8Array(tapLength);
  let tapFill = 0;
  const finishTapPart = () => {
    const n = tapPart;
    if (toSend.has(n)) {
      // digest() copies its input before returning, so the buffer may be reused at once.
      const hashing = crypto.subtle.digest('SHA-256', tapBuffer.subarray(0, tapFill));
      const done = hashing.then((digest) => recordPartHash(record.uploadId, n, toHex(new Uint8Array(digest))));
      done.catch(() => {});
      recorded.set(n, done);
    }
    tapPart++;
    if (tapPart < plan.total) {
      const r = plainRangeOfPart(g, tapPart);
      tapLength = r.end - r.start;
      if (tapBuffer.length < tapLength) tapBuffer = new Uint8Array(tapLength);
    }
    tapFill = 0;
  };
  const tap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(tapLength - tapFill, chunk.length - offset);
        tapBuffer.set(chunk.subarray(offset, offset + n), tapFill);
        tapFill += n;
        offset += n;
        if (tapFill === tapLength) finishTapPart();
      }
      encrypted += chunk.length;
      report({ type: 'progress', phase: sentBytes > 0 ? 'uploading' : 'encrypting', encrypted, sent: sentBytes, plainSize: g.plainSize, cipherSize: g.cipherSize });
      controller.enqueue(chunk);
    },
  });

  const source = (plan.startByte === 0 ? file : file.slice(plan.startByte)).stream();
  const cipher = source.pipeThrough(tap, { signal }).pipeThrough(createEncryptStream(record.key, record.fileNonce, { startChunk: plan.startChunk }));
  const reader = cipher.getReader();

  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let partsSent = 0;
  const launch = (n: number, slot: PartSlot, body: Blob | Uint8Array<ArrayBuffer>) => {
    const size = body instanceof Blob ? body.size : body.length;
    const task = (async () => {
      await recorded.get(n);
      await sendPart(record.uploadId, n, body, signal);
      sentBytes += size;
      partsSent++;
      report({ type: 'progress', phase: 'uploading', encrypted, sent: sentBytes, plainSize: g.plainSize, cipherSize: g.cipherSize });
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
      // Fresh WebCrypto output, so backed by a plain ArrayBuffer (the stream's type is wider).
      const value = read as Uint8Array<ArrayBuffer>;
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
    await files.dispose();
  }
  if (part !== plan.total) throw new TransferError('SHORT_READ', 'The file changed while it was being read.');
  return partsSent;
}

async function uploadFile(request: UploadRequest, port: MessagePort | undefined): Promise<UploadResult> {
  const { file } = request;
  const report = progressReporter(port);
  const controller = new AbortController();
  const signal = controller.signal;
  port?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string })?.type === 'cancel') controller.abort(new TransferError('CANCELLED', 'Upload cancelled'));
  });
  port?.start();

  let prepared = request.resumeUploadId ? await tryResume(request.resumeUploadId, file) : undefined;
  const parentId = prepared?.record.parentId ?? request.parentId;
  const g = geometryOf(file.size);
  report({ type: 'progress', phase: 'encrypting', encrypted: 0, sent: 0, plainSize: g.plainSize, cipherSize: g.cipherSize }, true);

  let id: string;
  try {
    if (!prepared) {
      id = newItemId();
      const key = newItemKey();
      const fileNonce = newFileNonce();
      const type = file.type || 'application/octet-stream';
      const sealed = await sealMetadata(id, parentId, key, file.name, type);
      const metadata = { id, parentId, isDirectory: false, ...sealed, fileNonce: toBase64(fileNonce), size: g.cipherSize };
      running.set(id, controller);

      if (planParts(g, [], CHUNK).kind === 'single') {
        // One part: encrypt into memory (at most PART_BYTES) and send it with the metadata.
        const blob = await new Response(file.stream().pipeThrough(createEncryptStream(key, fileNonce), { signal })).blob();
        report({ type: 'progress', phase: 'uploading', encrypted: g.plainSize, sent: 0, plainSize: g.plainSize, cipherSize: g.cipherSize }, true);
        await postUpload(metadata, blob, signal);
        report({ type: 'progress', phase: 'uploading', encrypted: g.plainSize, sent: g.cipherSize, plainSize: g.plainSize, cipherSize: g.cipherSize }, true);
        await rememberUploaded(id);
        return { id, size: g.cipherSize, resumed: false, partsSent: 1 };
      }

      const created = await postUpload(metadata, undefined, signal);
      const uploadId = String(created.uploadId);
      const now = Date.now();
      const record: UploadRecord = {
        uploadId,
        id,
        parentId,
        key,
        fileNonce,
        name: file.name,
        type,
        size: file.size,
        lastModified: file.lastModified,
        cipherSize: g.cipherSize,
        partHashes: {},
        userId: await currentUserId(),
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
      const response = await withRetries(
        () => fetch(`/api/upload/${record.uploadId}/complete`, { method: 'POST', credentials: 'same-origin', signal }),
        { signal },
      );
      if (!response.ok) throw statusError(response.status);
    } catch (error) {
      // Quota, size limit, a vanished upload or a cancel end it for good; a network failure
      // keeps the record so it can resume later.
      const fatal = signal.aborted || (error instanceof TransferError && !error.code.startsWith('HTTP_5'));
      if (fatal) {
        await abortOnServer(record.uploadId);
        await deleteRecord(record.uploadId);
      }
      throw error;
    }
    await deleteRecord(record.uploadId);
    record.key.fill(0);
    report({ type: 'progress', phase: 'uploading', encrypted: g.plainSize, sent: g.cipherSize, plainSize: g.plainSize, cipherSize: g.cipherSize }, true);
    await rememberUploaded(id);
    return { id, size: g.cipherSize, resumed: prepared.resumed, partsSent };
  } catch (error) {
    if (signal.aborted) throw new TransferError('CANCELLED', 'Upload cancelled');
    if (error instanceof TransferError || error instanceof HttpStatusError) throw error;
    if (error instanceof TypeError) throw new TransferError('NETWORK', 'Network error while uploading. Please try again.');
    throw error;
  } finally {
    running.delete(id!);
    port?.close();
  }
}

/**
 * The key tree learns new items when their folder is listed again (openItems); nothing to do
 * here beyond that. Kept as the one place to hook a direct registration in.
 */
async function rememberUploaded(_id: string): Promise<void> {}

/* ------------------------------------------------------------------------- download */

const transferError = (code: string, message: string) => new TransferError(code, message);

/** SPEC 9: a folder download gathers descendants to depth 20, 1000 per request. */
export const FOLDER_DEPTH = 20;
export const FOLDER_PAGE = 1000;

function fileEntry(item: ServerItem, path: string): DownloadEntry {
  if (item.fileNonce === null) throw new TransferError('BAD_ITEM', 'File nonce not found');
  return {
    kind: 'file',
    path,
    id: item.id,
    key: new Uint8Array(itemKey(item.id)),
    fileNonce: fromBase64(item.fileNonce, 'fileNonce'),
    size: plaintextSize(item.size),
  };
}

async function gatherFolder(target: DownloadTarget, rootPath: string, out: DownloadEntry[]): Promise<void> {
  const items: ServerItem[] = [];
  for (let offset = 0; ; offset += FOLDER_PAGE) {
    const page = await getListing(target.id, FOLDER_DEPTH, FOLDER_PAGE, offset, transferError);
    items.push(...page.files);
    if (page.files.length < FOLDER_PAGE) break;
  }
  // Opens names and keys under the folder's key (breadth first, so parents come first).
  const views = await openItems(items);
  // Only items whose key opened under their parent are trusted (a planted one is left out).
  const nameOf = new Map<string, string>();
  for (const view of views) if (view.decrypted) nameOf.set(view.id, view.name ?? '');
  const pathOf = new Map<string, string>([[target.id, rootPath]]);
  const taken = new Map<string, Set<string>>();
  out.push({ kind: 'dir', path: rootPath });
  for (const item of items) {
    const parentPath = item.parentId ? pathOf.get(item.parentId) : undefined;
    if (parentPath === undefined || !nameOf.has(item.id)) continue;
    const siblings = taken.get(parentPath) ?? new Set<string>();
    taken.set(parentPath, siblings);
    const base = safeSegment(nameOf.get(item.id) || (item.isDirectory ? 'Encrypted directory' : 'Encrypted file'));
    const path = `${parentPath}/${uniqueName(base, siblings)}`;
    if (item.isDirectory) {
      pathOf.set(item.id, path);
      out.push({ kind: 'dir', path });
    } else {
      out.push(fileEntry(item, path));
    }
  }
}

async function buildJob(targets: DownloadTarget[]): Promise<DownloadJob> {
  if (targets.length === 1 && !targets[0]!.isDirectory) {
    const target = targets[0]!;
    const { root } = await getListing(target.id, 1, 1, 0, transferError);
    if (!root || root.isDirectory) throw new TransferError('NOT_FOUND', 'File not found');
    const entry = fileEntry(root, safeSegment(target.name || 'Encrypted file'));
    return { kind: 'file', name: entry.path, entries: [entry] };
  }
  const entries: DownloadEntry[] = [];
  const top = new Set<string>();
  for (const target of targets) {
    const name = uniqueName(safeSegment(target.name || (target.isDirectory ? 'Encrypted directory' : 'Encrypted file')), top);
    if (target.isDirectory) await gatherFolder(target, name, entries);
    else {
      const { root } = await getListing(target.id, 1, 1, 0, transferError);
      if (!root) throw new TransferError('NOT_FOUND', 'File not found');
      entries.push(fileEntry(root, name));
    }
  }
  const single = targets.length === 1 ? safeSegment(targets[0]!.name || 'Encrypted directory') : 'Sealbox files';
  return { kind: 'zip', name: `${single}.zip`, entries };
}

/**
 * Hands the service worker what it needs to stream `targets` to disk: posts the job on `port`
 * (the page gave the other end to the service worker) and resolves once the service worker has
 * it. The keys are copies; the ones posted are wiped here afterwards.
 */
async function prepareDownload(targets: DownloadTarget[], port: MessagePort): Promise<{ name: string; kind: 'file' | 'zip' }> {
  let job: DownloadJob | undefined;
  try {
    job = await buildJob(targets);
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new TransferError('SW_TIMEOUT', 'The download helper did not answer')), 10_000);
      port.onmessage = (event: MessageEvent) => {
        if ((event.data as { type?: string })?.type === 'ready') {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    port.postMessage({ type: 'job', job });
    await ready;
    return { name: job.name, kind: job.kind };
  } finally {
    for (const entry of job?.entries ?? []) if (entry.kind === 'file') entry.key.fill(0);
    port.close();
  }
}

/* ------------------------------------------------------------------------- exposed */

export const transferMethods = {
  /** Encrypts and uploads one file (or resumes `resumeUploadId`); progress events go to `progress`. */
  uploadFile(request: UploadRequest, progress?: MessagePort): Promise<UploadResult> {
    return uploadFile(request, progress);
  },

  /** Unfinished uploads of the signed-in user that can resume (no keys in the answer). */
  async pendingUploads(): Promise<PendingUpload[]> {
    const records = await listRecords(await currentUserId());
    return records.map((r) => ({
      uploadId: r.uploadId,
      id: r.id,
      parentId: r.parentId,
      name: r.name,
      size: r.size,
      lastModified: r.lastModified,
      partsStarted: Object.keys(r.partHashes).length,
      parts: Math.ceil(r.cipherSize / PART_BYTES),
      createdAt: r.createdAt,
    }));
  },

  /** Gives up an unfinished upload: the server frees its bytes, the record (and K) is deleted. */
  async discardUpload(uploadId: string): Promise<void> {
    running.forEach((controller, id) => {
      void getRecord(uploadId).then((r) => r?.id === id && controller.abort());
    });
    await abortOnServer(uploadId);
    await deleteRecord(uploadId);
  },

  cancelUpload(id: string): void {
    running.get(id)?.abort(new TransferError('CANCELLED', 'Upload cancelled'));
  },

  prepareDownload(targets: DownloadTarget[], port: MessagePort): Promise<{ name: string; kind: 'file' | 'zip' }> {
    return prepareDownload(targets, port);
  },
};

export type TransferMethods = typeof transferMethods;
