/**
 * `put` of one local file into a remote folder (docs/cli.md "put"), as the web app's worker
 * uploads (docs/protocol.md "Contents" and "Part protocol"): a fresh K and file nonce, the name
 * and mime sealed under K, K wrapped under the folder's key; the content encrypted in chunks as
 * it streams from disk and sent whole when it fits one part, else part by part. A name already
 * used by a file becomes a new version of it (docs/protocol.md "Versions"), so nothing is lost.
 * A part upload is written to the journal before its first part, so a rerun after a kill asks
 * the server which parts it has and sends only the others (the same key, nonce and bytes).
 */
import { stat } from 'node:fs/promises';
import {
  PART_BYTES,
  PART_CHUNKS,
  ciphertextSize,
  ciphertextTags,
  createEncryptStream,
  encryptMime,
  fromBase64,
  newFileNonce,
  newItemId,
  newItemKey,
  partCount,
  partFingerprint,
  partPlainRange,
  sealFileMetadata,
  tagsFingerprint,
  toBase64,
  unwrapItemKey,
} from '@sealbox/crypto';
import { bareMime } from '@sealbox/rules';
import { CliError, EXIT } from '../cli-error.ts';
import { type Connection, answer, postForm, refusal } from '../client.ts';
import type { Folder, RemoteItem } from '../remote-tree.ts';
import { type JournalEntry, type PartLog, findUpload, forgetUpload, journalKey, partLog, rememberUpload } from './journal.ts';
import type { Progress } from './progress.ts';

/** Tries of one part (or the completion) before the put fails: network errors and 5xx only. */
const TRIES = 3;
/** Parts sent at once by `put` (each one part of memory). */
const PARTS_IN_FLIGHT = 3;

export interface UploadTarget {
  conn: Connection;
  userId: string;
  parent: Folder;
  name: string;
  /** The file of that name already there (its key opened): the upload is a new version of it. */
  existing: RemoteItem | undefined;
  /** The new item's id, when the caller needs to know it before the upload ends (the bridge). */
  id?: string;
}

/** What an upload made: enough to list the file without asking the server again. */
export interface Uploaded {
  id: string;
  key: Uint8Array;
  /** Base64, as listings carry it. */
  fileNonce: string;
  /** Plaintext bytes. */
  size: number;
}

/** The listing entry of a file just uploaded into `parent` (a new one, or a new version of `existing`). */
export function uploadedItem(parent: Folder, name: string, uploaded: Uploaded, existing: RemoteItem | undefined): RemoteItem {
  const now = Date.now();
  return {
    ...uploaded,
    parentId: parent.id,
    isDirectory: false,
    name,
    createdAt: existing?.createdAt ?? now,
    modifiedAt: now,
  };
}

/** The local file's type as a browser would give it (Bun's table), without parameters. */
function mimeOf(localPath: string): string {
  return bareMime(Bun.file(localPath).type) || 'application/octet-stream';
}

async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CliError && error.retryable) || tries >= TRIES) throw error;
      await Bun.sleep(1000 * tries);
    }
  }
}

async function putPart(conn: Connection, uploadId: string, n: number, bytes: Uint8Array): Promise<void> {
  await withRetries(async () => {
    let response: Response;
    try {
      response = await fetch(`${conn.server}/api/upload/${encodeURIComponent(uploadId)}/part/${n}`, {
        method: 'PUT',
        headers: { cookie: conn.cookie, 'content-type': 'application/octet-stream' },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
    } catch {
      throw new CliError(`Cannot reach ${conn.server}.`, EXIT.network);
    }
    if (response.ok) return;
    throw refusal(response.status, await response.json().catch(() => undefined), response);
  });
}

/** A new upload's metadata, its K and nonce (a new item, or a new version of `existing`). */
async function newContent(target: UploadTarget, cipherSize: number, type: string) {
  const fileNonce = newFileNonce();
  const { existing } = target;
  if (existing?.key) {
    const sealedMime = await encryptMime(existing.key, existing.id, type);
    const metadata = { versionOf: existing.id, fileNonce: toBase64(fileNonce), size: cipherSize, ...sealedMime };
    return { id: existing.id, key: existing.key, fileNonce, metadata, wrapped: null };
  }
  const id = target.id ?? newItemId();
  const key = newItemKey();
  const sealed = await sealFileMetadata(target.parent.key, id, key, target.name, type);
  const metadata = {
    id,
    parentId: target.parent.id,
    isDirectory: false,
    ...sealed,
    fileNonce: toBase64(fileNonce),
    size: cipherSize,
  };
  return { id, key, fileNonce, metadata, wrapped: { encryptedKey: sealed.encryptedKey, keyNonce: sealed.keyNonce } };
}

/**
 * Encrypts the file from the first part the server lacks to its end, cutting the ciphertext into
 * parts, and sends those it lacks. Memory: one part and the stream's few chunks in flight.
 */
async function sendParts(
  conn: Connection,
  localPath: string,
  entry: JournalEntry,
  key: Uint8Array,
  received: ReadonlySet<number>,
  progress: Progress,
  partsInFlight: number,
  /** Told of each part before it is sent, with its fingerprint, and once the server has it. */
  log?: PartLog,
): Promise<void> {
  const cipherSize = ciphertextSize(entry.size);
  const total = partCount(cipherSize);
  let first = 0;
  while (first < total && received.has(first)) first++;
  for (const n of received) if (n < total) progress.add(Math.min(PART_BYTES, cipherSize - n * PART_BYTES));
  if (first === total) return;
  const input = Bun.file(localPath).slice(partPlainRange(first, entry.size).start, entry.size).stream();
  const reader = input
    .pipeThrough(createEncryptStream(key, fromBase64(entry.fileNonce, 'fileNonce'), { startChunk: first * PART_CHUNKS }))
    .getReader();
  // Parts go out while the next ones are encrypted: at most PARTS_IN_FLIGHT at once. The first
  // failure (after its retries) fails the put; a rerun resumes from the parts the server has.
  const inFlight = new Set<Promise<void>>();
  let failed: unknown;
  const send = async (n: number, bytes: Uint8Array) => {
    if (failed) throw failed;
    const sending = putPart(conn, entry.uploadId, n, bytes).then(
      () => {
        log?.confirmed(n);
        progress.add(bytes.length);
      },
      (error: unknown) => {
        failed ??= error;
      },
    );
    const tracked = sending.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= partsInFlight) await Promise.race(inFlight);
    if (failed) throw failed;
  };
  let part = first;
  let buffer = new Uint8Array(Math.min(PART_BYTES, cipherSize - part * PART_BYTES));
  let fill = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let offset = 0;
    while (offset < value.length) {
      const n = Math.min(buffer.length - fill, value.length - offset);
      buffer.set(value.subarray(offset, offset + n), fill);
      fill += n;
      offset += n;
      if (fill < buffer.length) continue;
      if (!received.has(part)) {
        await log?.begin(part, await tagsFingerprint(ciphertextTags(buffer)));
        await send(part, buffer);
      }
      part++;
      fill = 0;
      if (part < total) buffer = new Uint8Array(Math.min(PART_BYTES, cipherSize - part * PART_BYTES));
    }
  }
  await Promise.all(inFlight);
  if (failed) throw failed;
  if (part !== total) throw new CliError(`${localPath} changed while it was read: run put again.`, EXIT.failed);
}

/** The upload the journal holds for this file, if it can still go on; one that cannot is ended. */
async function resumable(conn: Connection, key: string, target: UploadTarget, size: number, mtimeMs: number) {
  const entry = await findUpload(key);
  if (!entry) return undefined;
  const status = await conn.api.api.upload({ uploadId: entry.uploadId }).get();
  const same =
    entry.size === size && entry.mtimeMs === mtimeMs && entry.versionOf === (target.existing?.key ? target.existing.id : null);
  if (status.status === 200 && same && status.data) return { entry, received: new Set(status.data.received) };
  // Changed, or gone on the server (expired, ended): start over, and free what it held.
  await abandon(conn, key, entry.uploadId, status.status === 200);
  return undefined;
}

async function abandon(conn: Connection, key: string, uploadId: string, held = true): Promise<void> {
  if (held) await conn.api.api.upload({ uploadId }).delete();
  await forgetUpload(key);
}

/**
 * Whether every part begun but not received encrypts again to what was begun (its fingerprint):
 * a file changed in place, its size and modification time kept, must not be resumed, or those
 * parts would go out as a second ciphertext under the same (K, nonce_i).
 */
async function startedPartsMatch(localPath: string, entry: JournalEntry, key: Uint8Array, received: ReadonlySet<number>) {
  const nonce = fromBase64(entry.fileNonce, 'fileNonce');
  for (const [n, recorded] of Object.entries(entry.started ?? {})) {
    const part = Number(n);
    if (received.has(part)) continue;
    const { start, end } = partPlainRange(part, entry.size);
    const plain = new Uint8Array(await Bun.file(localPath).slice(start, end).arrayBuffer());
    if (plain.length !== end - start) return false;
    if ((await partFingerprint(key, nonce, entry.size, part, plain)) !== recorded) return false;
  }
  return true;
}

/**
 * Uploads `localPath` as `target`; answers what it made. Not `resumable` (the WebDAV bridge,
 * whose source is a spooled request body): no journal, and a failure ends the upload on the
 * server at once, so nothing is left behind. The bridge sends one part at a time per upload: its
 * clients already upload several files at once, and its memory must stay bounded.
 */
export async function uploadFile(
  target: UploadTarget,
  localPath: string,
  progressFor: (total: number) => Progress,
  { resumable: keep = true, partsInFlight = PARTS_IN_FLIGHT }: { resumable?: boolean; partsInFlight?: number } = {},
): Promise<Uploaded> {
  const { conn } = target;
  if (target.existing && (target.existing.isDirectory || !target.existing.key)) {
    throw new CliError(`A folder named "${target.name}" is already there.`, EXIT.conflict);
  }
  const facts = await stat(localPath);
  const cipherSize = ciphertextSize(facts.size);
  const progress = progressFor(cipherSize);
  const key = journalKey({
    server: conn.server,
    userId: target.userId,
    parentId: target.parent.id,
    name: target.name,
    localPath,
  });
  const resumed = keep ? await resumable(conn, key, target, facts.size, facts.mtimeMs) : undefined;
  if (resumed) {
    const { entry, received } = resumed;
    const itemKey = entry.versionOf
      ? target.existing!.key!
      : await unwrapItemKey(target.parent.key, entry.itemId, entry.encryptedKey!, entry.keyNonce!);
    if (await startedPartsMatch(localPath, entry, itemKey, received)) {
      const unconfirmed = Object.fromEntries(Object.entries(entry.started ?? {}).filter(([n]) => !received.has(Number(n))));
      await sendParts(conn, localPath, entry, itemKey, received, progress, partsInFlight, partLog(key, unconfirmed));
      await complete(conn, entry.uploadId);
      await forgetUpload(key);
      progress.done();
      return { id: entry.itemId, key: itemKey, fileNonce: entry.fileNonce, size: facts.size };
    }
    // Changed in place: a fresh upload, a new K (or nonce, for a version) below.
    await abandon(conn, key, entry.uploadId);
  }

  const content = await newContent(target, cipherSize, mimeOf(localPath));
  if (cipherSize <= PART_BYTES) {
    const plain = new Uint8Array(await Bun.file(localPath).arrayBuffer());
    const cipher = new Uint8Array(
      await new Response(
        new Blob([plain]).stream().pipeThrough(createEncryptStream(content.key, content.fileNonce)),
      ).arrayBuffer(),
    );
    if (plain.length !== facts.size) throw new CliError(`${localPath} changed while it was read: run put again.`, EXIT.failed);
    await postForm(conn, '/api/upload', { metadata: JSON.stringify(content.metadata), file: new Blob([cipher]) });
    progress.add(cipher.length);
    progress.done();
    return { id: content.id, key: content.key, fileNonce: toBase64(content.fileNonce), size: facts.size };
  }
  const started = (await postForm(conn, '/api/upload', { metadata: JSON.stringify(content.metadata) })) as { uploadId: string };
  const entry: JournalEntry = {
    uploadId: started.uploadId,
    itemId: content.id,
    parentId: target.parent.id,
    versionOf: content.wrapped ? null : content.id,
    fileNonce: toBase64(content.fileNonce),
    encryptedKey: content.wrapped?.encryptedKey ?? null,
    keyNonce: content.wrapped?.keyNonce ?? null,
    size: facts.size,
    mtimeMs: facts.mtimeMs,
  };
  if (keep) await rememberUpload(key, entry);
  try {
    await sendParts(conn, localPath, entry, content.key, new Set(), progress, partsInFlight, keep ? partLog(key) : undefined);
    await complete(conn, entry.uploadId);
  } catch (error) {
    if (!keep) await conn.api.api.upload({ uploadId: entry.uploadId }).delete();
    throw error;
  }
  if (keep) await forgetUpload(key);
  progress.done();
  return { id: content.id, key: content.key, fileNonce: entry.fileNonce, size: facts.size };
}

async function complete(conn: Connection, uploadId: string): Promise<void> {
  await withRetries(() => answer(conn.api.api.upload({ uploadId }).complete.post(), conn.server));
}
