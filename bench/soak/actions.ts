/**
 * What a user does to its own files and folders: list, make folders, upload small files (one
 * request) and large ones (in parts), read one chunk by Range (decrypted and checked), rename,
 * move (the key re-wrapped under the new folder) and delete. An action that has nothing to act on
 * does another instead.
 */
import {
  CHUNK,
  chunkCipherRange,
  chunkCount,
  ciphertextSize,
  decryptChunkAt,
  encryptName,
  partCount,
  partRange,
  wrapItemKey,
} from '@sealbox/crypto';
import { fileMetadata, folderMetadata, type ApiFolder } from '../../e2e/support/files.ts';
import { call, check } from './client.ts';
import { encrypt, plain } from './content.ts';
import { LARGE_PER_USER, SMALL_PER_USER } from './settings.ts';
import type { SoakFile, SoakUser } from './users.ts';

export const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
let seeds = 1;

/** POST /api/upload: a folder, a file of one part (its ciphertext in `file`), or the start of one in parts. */
export function postItem(cookie: string, metadata: { id: string }, cipher?: Uint8Array<ArrayBuffer>): Promise<Response | null> {
  const form = new FormData();
  form.set('metadata', JSON.stringify(metadata));
  if (cipher) form.set('file', new File([cipher], 'blob'));
  return call('POST', '/api/upload', { cookie, body: form });
}

export async function makeFolder(user: SoakUser): Promise<void> {
  const parent = pick([user.root, ...user.folders]);
  if (user.folders.length >= 25) return list(user);
  const { metadata, key } = await folderMetadata(parent.key, parent.id, `folder ${user.folders.length}`);
  const response = await postItem(user.session.cookie, metadata);
  if (response && check(response.status === 201, `mkdir ${response.status}`)) user.folders.push({ id: metadata.id, key });
}

async function newFile(parent: ApiFolder, size: number) {
  const seed = seeds++;
  const { metadata, key, fileNonce } = await fileMetadata(
    parent.key,
    parent.id,
    `file ${seed}.bin`,
    'application/octet-stream',
    ciphertextSize(size),
  );
  const cipher = await encrypt(key, fileNonce, plain(seed, 0, size));
  const file: SoakFile = { id: metadata.id, key, nonce: fileNonce, seed, size, parentId: parent.id, large: false };
  return { file, cipher, metadata };
}

export async function uploadSmall(user: SoakUser): Promise<void> {
  if (user.files.filter((f) => !f.large).length >= SMALL_PER_USER) return remove(user, false);
  const parent = pick([user.root, ...user.folders]);
  const { file, cipher, metadata } = await newFile(parent, 1 + Math.floor(Math.random() * 300_000));
  const response = await postItem(user.session.cookie, metadata, cipher);
  if (response && check(response.status === 201, `upload small ${response.status}`)) user.files.push(file);
}

export async function uploadLarge(user: SoakUser): Promise<void> {
  if (user.files.filter((f) => f.large).length >= LARGE_PER_USER) return remove(user, true);
  const parent = pick([user.root, ...user.folders]);
  // 1.2 to 2.5 parts: 10 to 21 MiB of ciphertext.
  const { file, cipher, metadata } = await newFile(parent, Math.floor((1.2 + Math.random() * 1.3) * 8 * 1024 * 1024));
  file.large = true;
  const created = await postItem(user.session.cookie, metadata);
  if (!created || !check(created.status === 201, `upload large ${created.status}`)) return;
  const { uploadId } = (await created.json()) as { uploadId: string };
  for (let n = 0; n < partCount(cipher.byteLength); n++) {
    const { start, end } = partRange(n, cipher.byteLength);
    const sent = await call('PUT', `/api/upload/${uploadId}/part/${n}`, {
      cookie: user.session.cookie,
      body: cipher.subarray(start, end),
      headers: { 'content-type': 'application/octet-stream' },
    });
    if (!sent || !check(sent.status === 204, `part ${n} ${sent?.status}`)) return;
    await Bun.sleep(50);
  }
  const done = await call('POST', `/api/upload/${uploadId}/complete`, { cookie: user.session.cookie });
  if (done && check(done.status === 200, `complete ${done.status}`)) user.files.push(file);
}

export async function list(user: SoakUser): Promise<void> {
  const folder = pick([user.root, ...user.folders]);
  const response = await call('GET', `/api/file?parentId=${folder.id}`, { cookie: user.session.cookie });
  if (response) check(response.status === 200, `list ${response.status}`);
}

/** One chunk by Range, decrypted on its own (as the media player reads): checks the bytes. */
export async function rangeRead(user: SoakUser, through?: { linkId: string; cookie?: string }, given?: SoakFile): Promise<void> {
  const file = given ?? (user.files.length > 0 ? pick(user.files) : undefined);
  if (!file) return uploadSmall(user);
  const index = Math.floor(Math.random() * chunkCount(file.size));
  const { start, end } = chunkCipherRange(index, file.size);
  const path = through ? `/api/file/data/${file.id}?linkId=${through.linkId}` : `/api/file/data/${file.id}`;
  const response = await call('GET', path, {
    ...(through ? (through.cookie ? { cookie: through.cookie } : {}) : { cookie: user.session.cookie }),
    headers: { range: `bytes=${start}-${end - 1}` },
  });
  if (!response || !check(response.status === 206, `range ${response?.status}`)) return;
  const cipher = new Uint8Array(await response.arrayBuffer());
  try {
    const got = await decryptChunkAt(file.key, file.nonce, index, cipher, file.size);
    const want = plain(file.seed, index * CHUNK, Math.min(file.size, (index + 1) * CHUNK));
    check(Buffer.compare(got, want) === 0, `range ${file.id} chunk ${index}: wrong bytes`);
  } catch (error) {
    check(false, `range ${file.id} chunk ${index}: ${String(error)}`);
  }
}

export async function rename(user: SoakUser): Promise<void> {
  const item: { id: string; key: Uint8Array } | undefined = pick([...user.files, ...user.folders]);
  if (!item) return makeFolder(user);
  const sealed = await encryptName(item.key, item.id, `renamed ${Date.now()}`);
  const response = await call('PUT', `/api/file/${item.id}`, {
    cookie: user.session.cookie,
    json: { type: 'rename', encryptedName: sealed.encryptedFileName, nameNonce: sealed.nameNonce },
  });
  if (response) check(response.status === 200, `rename ${response.status}`);
}

export async function move(user: SoakUser): Promise<void> {
  const file = user.files.length > 0 ? pick(user.files) : undefined;
  if (!file) return uploadSmall(user);
  const target = pick([user.root, ...user.folders].filter((f) => f.id !== file.parentId));
  if (!target) return list(user);
  const wrapped = await wrapItemKey(target.key, file.id, file.key);
  const response = await call('PUT', `/api/file/${file.id}`, {
    cookie: user.session.cookie,
    json: { type: 'move', parentId: target.id, ...wrapped },
  });
  if (response && check(response.status === 200, `move ${response.status}`)) file.parentId = target.id;
}

export async function remove(user: SoakUser, large: boolean): Promise<void> {
  const file = user.files.find((f) => f.large === large);
  if (!file) return;
  const response = await call('DELETE', `/api/file/${file.id}`, { cookie: user.session.cookie });
  if (response && check(response.status === 204, `delete ${response.status}`)) {
    user.files = user.files.filter((f) => f !== file);
    // Its links went with it.
    user.links = user.links.filter((link) => link.fileId !== file.id);
  }
}
