import {
  createDecryptStream,
  createEncryptStream,
  encryptName,
  newFileNonce,
  newItemId,
  newItemKey,
  partCount,
  partRange,
  sealFileMetadata,
  toBase64,
  wrapItemKey,
} from '@sealbox/crypto';
import { sql, type Insertable } from 'kysely';
import { newPartKey } from '../../src/domain/files/blob-keys.ts';
import { createQuota, type FilesPorts } from '../../src/domain/files/index.ts';
import type { createApp, AppDeps } from '../../src/http/app.ts';
import { createFilesStore } from '../../src/infra/db/files/files-store.ts';
import { createQuotaStore } from '../../src/infra/db/files/quota-store.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import type { BlobStore } from '../../src/ports/blob-store.ts';
import type { Db } from '../../src/ports/db.ts';
import type { ItemPartsTable, ItemsTable } from '../../src/ports/db-schema.ts';
import type { EventBus } from '../../src/ports/event-bus.ts';
import { Browser, ORIGIN, registerAndLogin, uniqueName } from '../accounts/harness.ts';
import { openAppHarness, type AppHarness } from '../support/app-harness.ts';

export { Browser };
/** ArrayBuffer-backed bytes (what Blob, fetch and Response take). */
export type Bytes = Uint8Array<ArrayBuffer>;
export const MAX_FILE = 1024 ** 3;

/** A fresh, migrated, empty database and an empty blob store. */
export type MakeFilesEnv = (events: EventBus) => Promise<{ db: Db; blobs: BlobStore; cleanup(): Promise<void> }>;

export interface FilesHarness extends AppHarness {
  app: ReturnType<typeof createApp>;
  /** The files domain's ports, for calling the sweep directly. */
  files: FilesPorts;
}

export async function openFilesHarness(makeEnv: MakeFilesEnv): Promise<FilesHarness> {
  const base = await openAppHarness('sealbox-files-', makeEnv);
  const store = createFilesStore(base.db);
  const makeApp = (overrides: Partial<AppDeps> = {}) => base.makeApp({ files: store, maxFileBytes: MAX_FILE, ...overrides });
  const clock = () => base.clock.now;
  return {
    ...base,
    app: makeApp(),
    makeApp,
    files: { store, quota: createQuota(createQuotaStore(base.db)), blobs: base.blobs, logger: silentLogger, clock },
  };
}

export interface User {
  browser: Browser;
  id: string;
  /** Stands in for the account root key R that wraps top-level item keys. */
  rootKey: Uint8Array;
}

export async function signedInUser(h: FilesHarness, app = h.app): Promise<User> {
  const browser = new Browser(app);
  const { id } = await registerAndLogin(browser, uniqueName('f'));
  return { browser, id, rootKey: newItemKey() };
}

/** A client-side item: its id and key K, and the metadata the server gets. */
export interface Made {
  id: string;
  key: Uint8Array;
  meta: Record<string, unknown>;
}

export async function folderMeta(wrapping: Uint8Array, parentId: string | null, name = 'Folder'): Promise<Made> {
  const id = newItemId();
  const key = newItemKey();
  return {
    id,
    key,
    meta: { id, parentId, isDirectory: true, ...(await encryptName(key, id, name)), ...(await wrapItemKey(wrapping, id, key)) },
  };
}

export interface Encrypted extends Made {
  plain: Bytes;
  cipher: Bytes;
  fileNonce: Uint8Array;
}

/** Real ciphertext from @sealbox/crypto's stream, plus the file's metadata. */
export async function fileMeta(
  wrapping: Uint8Array,
  parentId: string | null,
  plain: Bytes,
  name = 'file.bin',
): Promise<Encrypted> {
  const id = newItemId();
  const key = newItemKey();
  const fileNonce = newFileNonce();
  const cipher = await sealContent(key, fileNonce, plain);
  return {
    id,
    key,
    plain,
    cipher,
    fileNonce,
    meta: {
      id,
      parentId,
      isDirectory: false,
      ...(await sealFileMetadata(wrapping, id, key, name, 'application/octet-stream')),
      fileNonce: toBase64(fileNonce),
      size: cipher.byteLength,
    },
  };
}

/** The blob of `plain` under K and fileNonce (docs/protocol.md "Contents"), as the browser makes it. */
export async function sealContent(key: Uint8Array, fileNonce: Uint8Array, plain: Bytes): Promise<Bytes> {
  return new Uint8Array(
    await new Response(new Blob([plain]).stream().pipeThrough(createEncryptStream(key, fileNonce))).arrayBuffer(),
  );
}

/** A file whose plaintext is `patternBytes(length, seed)`: the content most tests need, reproducible by seed. */
export function patternFile(wrapping: Uint8Array, parentId: string | null, length: number, seed?: number, name?: string) {
  return fileMeta(wrapping, parentId, patternBytes(length, seed), name);
}

export async function decrypt(made: Encrypted, cipher: Bytes): Promise<Bytes> {
  const out = new Blob([cipher]).stream().pipeThrough(createDecryptStream(made.key, made.fileNonce));
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export function patternBytes(length: number, seed = 7): Bytes {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >>> 16;
  }
  return out;
}

/** POST /api/upload as multipart; `metadata` as given (a string is sent verbatim). */
export function postUpload(browser: Browser, metadata: unknown, file?: Bytes, path = '/api/upload') {
  const form = new FormData();
  form.append('metadata', typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  if (file) form.append('file', new Blob([file]), 'blob');
  return browser.call('POST', path, { body: form });
}

export function putPart(
  browser: Browser,
  uploadId: string,
  n: number | string,
  bytes: Bytes,
  headers: Record<string, string> = {},
) {
  return browser.call('PUT', `/api/upload/${uploadId}/part/${n}`, {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength), ...headers },
  });
}

export function partBytes(cipher: Bytes, n: number): Bytes {
  const { start, end } = partRange(n, cipher.byteLength);
  return cipher.subarray(start, end);
}

/** PUT part `n` of the file's own ciphertext, as the browser sends it. */
export function sendPart(
  browser: Browser,
  uploadId: string,
  file: { cipher: Bytes },
  n: number,
  headers: Record<string, string> = {},
) {
  return putPart(browser, uploadId, n, partBytes(file.cipher, n), headers);
}

/** POST /api/upload of a folder or a whole file, which must be made (201); the answer's body. */
export async function postMade(browser: Browser, made: Made & { cipher?: Bytes }, path?: string) {
  const answer = await postUpload(browser, made.meta, made.cipher, path);
  if (answer.status !== 201) throw new Error(`create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Who creates an item: their browser, and the root key that wraps what they put at the top. */
export type Creator = Pick<User, 'browser' | 'rootKey'>;

/** Where a new item goes: in `parent`, wrapped with its key, or at the creator's top level. */
function placeIn(user: Creator, parent: Made | null): [wrapping: Uint8Array, parentId: string | null] {
  return parent ? [parent.key, parent.id] : [user.rootKey, null];
}

/** A folder made by `user`'s browser in `parent` (null: at the top) and created on the server. */
export async function postFolder(user: Creator, parent: Made | null, name?: string): Promise<Made> {
  const folder = await folderMeta(...placeIn(user, parent), name);
  await postMade(user.browser, folder);
  return folder;
}

/** A `patternFile` made by `user`'s browser in `parent` (null: at the top) and sent whole. */
export async function postFile(
  user: Creator,
  parent: Made | null,
  length: number,
  seed?: number,
  name?: string,
): Promise<Encrypted> {
  const file = await patternFile(...placeIn(user, parent), length, seed, name);
  await postMade(user.browser, file);
  return file;
}

/** Uploads a file the way the browser does: whole if it fits one part, else in parts. */
export async function uploadFile(user: User, made: Encrypted): Promise<void> {
  if (partCount(made.cipher.byteLength) === 1) {
    const { status, body } = await postUpload(user.browser, made.meta, made.cipher);
    if (status !== 201) throw new Error(`upload failed: ${status} ${JSON.stringify(body)}`);
    return;
  }
  const created = await postUpload(user.browser, made.meta);
  if (created.status !== 201) throw new Error(`upload failed: ${created.status} ${JSON.stringify(created.body)}`);
  for (let n = 0; n < created.body.parts; n++) {
    const sent = await putPart(user.browser, created.body.uploadId, n, partBytes(made.cipher, n));
    if (sent.status !== 204) throw new Error(`part ${n} failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  const done = await user.browser.call('POST', `/api/upload/${created.body.uploadId}/complete`);
  if (done.status !== 200) throw new Error(`complete failed: ${done.status} ${JSON.stringify(done.body)}`);
}

export async function download(browser: Browser, id: string, range?: string) {
  const response = await browser.request('GET', `/api/file/data/${id}`, range ? { headers: { range } } : {});
  return { response, status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Everything a bad request must leave untouched. */
export async function snapshot(h: FilesHarness) {
  const k = h.db.kysely;
  const blobs: string[] = [];
  for await (const key of h.blobs.list('part-')) blobs.push(key);
  return {
    items: await k.selectFrom('items').selectAll().orderBy('id').execute(),
    parts: await k.selectFrom('item_parts').selectAll().orderBy('blob_key').execute(),
    versions: await k.selectFrom('item_versions').selectAll().orderBy('id').execute(),
    versionParts: await k.selectFrom('item_version_parts').selectAll().orderBy('blob_key').execute(),
    uploads: await k.selectFrom('uploads').selectAll().orderBy('id').execute(),
    users: await k.selectFrom('users').select(['id', 'used_space', 'reserved_space', 'total_space']).orderBy('id').execute(),
    blobs: blobs.sort(),
  };
}

/** used_space must equal the bytes of the parts stored for the user's items and their versions. */
export async function storedBytes(h: FilesHarness, userId: string): Promise<number> {
  const k = h.db.kysely;
  const rows = await k
    .selectFrom('item_parts')
    .innerJoin('items', 'items.id', 'item_parts.item_id')
    .select('item_parts.size')
    .where('items.owner_id', '=', userId)
    .unionAll(
      k
        .selectFrom('item_version_parts')
        .innerJoin('item_versions', 'item_versions.id', 'item_version_parts.version_id')
        .innerJoin('items', 'items.id', 'item_versions.item_id')
        .select('item_version_parts.size')
        .where('items.owner_id', '=', userId),
    )
    .execute();
  return rows.reduce((sum, r) => sum + Number(r.size), 0);
}

export async function space(h: FilesHarness, userId: string) {
  const row = await h.db.kysely
    .selectFrom('users')
    .select(['used_space', 'reserved_space', 'total_space'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { used: Number(row.used_space), reserved: Number(row.reserved_space), total: Number(row.total_space) };
}

export async function setQuota(h: FilesHarness, userId: string, total: number): Promise<void> {
  await h.db.kysely.updateTable('users').set({ total_space: total }).where('id', '=', userId).execute();
}

/**
 * A tree written straight into the database (tens of thousands of items in a second, where
 * HTTP takes a minute): under `parentId`, shape[i] children per folder at depth i, the last
 * level files. Every `partEvery`-th file has one stored part of `PART_SIZE` bytes (a real blob).
 * The owner's itemCount and usedSpace follow, as the server keeps them.
 */
export async function seedTree(h: FilesHarness, ownerId: string, parentId: string, shape: number[], partEvery = 0) {
  const PART_SIZE = 32;
  const now = h.clock.now;
  const text = toBase64(new Uint8Array(24));
  const nonce = toBase64(new Uint8Array(12));
  const items: Array<Insertable<ItemsTable>> = [];
  const parts: Array<Insertable<ItemPartsTable>> = [];
  let level = [parentId];
  for (const [depth, width] of shape.entries()) {
    const isDirectory = depth < shape.length - 1;
    const next: string[] = [];
    for (const parent of level) {
      for (let i = 0; i < width; i++) {
        const id = newItemId();
        const stored = !isDirectory && partEvery > 0 && items.length % partEvery === 0;
        items.push({
          id,
          parent_id: parent,
          owner_id: ownerId,
          uploader_id: ownerId,
          is_directory: isDirectory ? 1 : 0,
          encrypted_file_name: text,
          name_nonce: nonce,
          encrypted_key: toBase64(new Uint8Array(48)),
          key_nonce: nonce,
          file_nonce: isDirectory ? null : nonce,
          size: stored ? PART_SIZE : 0,
          state: 'ready',
          created_at: now,
          modified_at: now,
        });
        if (stored) parts.push({ item_id: id, n: 0, size: PART_SIZE, blob_key: newPartKey(now), created_at: now });
        next.push(id);
      }
    }
    level = next;
  }
  for (const part of parts) await h.blobs.put(part.blob_key, new Uint8Array(PART_SIZE));
  const k = h.db.kysely;
  for (let i = 0; i < items.length; i += 500)
    await k
      .insertInto('items')
      .values(items.slice(i, i + 500))
      .execute();
  for (let i = 0; i < parts.length; i += 500)
    await k
      .insertInto('item_parts')
      .values(parts.slice(i, i + 500))
      .execute();
  const bytes = parts.length * PART_SIZE;
  await k
    .updateTable('users')
    .set({ item_count: sql`item_count + ${items.length}`, used_space: sql`used_space + ${bytes}` })
    .where('id', '=', ownerId)
    .execute();
  return {
    ids: items.map((item) => item.id),
    folders: items.filter((item) => item.is_directory === 1).map((item) => item.id),
    bytes,
  };
}

/** Rows the user owns, and the count the server keeps of them. */
export async function itemCounts(h: FilesHarness, userId: string) {
  const k = h.db.kysely;
  const rows = await k
    .selectFrom('items')
    .select(k.fn.countAll<number | string>().as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  const kept = await k.selectFrom('users').select('item_count').where('id', '=', userId).executeTakeFirstOrThrow();
  return { rows: Number(rows.n), kept: Number(kept.item_count) };
}

/**
 * An app of the harness listening on a real port, and browsers for signed-in users that reach
 * it over TCP: requests then arrive as the event loop lets them, as in production.
 */
export function serveOverHttp(h: FilesHarness) {
  const app = h.makeApp({ publicOrigin: ORIGIN });
  app.listen({ hostname: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${app.server!.port}`;
  const remote = {
    handle(request: Request) {
      const url = new URL(request.url);
      return fetch(`${base}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
    },
  };
  return {
    browserOf(user: User): Browser {
      const browser = new Browser(remote);
      browser.cookie = user.browser.cookie;
      return browser;
    },
    stop: () => app.stop(true),
  };
}
