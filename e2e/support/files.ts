/**
 * Items for journeys and benchmarks, made through the real API with the real crypto package
 * (the same formats the browser makes): sign in from Bun, unlock the account to get the root
 * key, then create folders under it. Much faster than clicking through dialogs. The UI helpers
 * at the end drive the file browser itself, for journeys that are about the pages.
 */
import {
  ciphertextSize,
  createEncryptStream,
  deriveLoginPassword,
  encryptMime,
  encryptName,
  newFileNonce,
  toBase64,
  newItemId,
  newItemKey,
  unlockAccount,
  wrapItemKey,
  type AccountKeys,
  type KdfParams,
} from '@sealbox/crypto';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, type TestUser } from './accounts.ts';

export interface ApiSession {
  baseUrl: string;
  cookie: string;
  userId: string;
  rootKey: CryptoKey;
  /** Every key of the account (signing grants, unwrapping shared keys). */
  keys: AccountKeys;
}

/** An answer's JSON (null for 204 No Content); an error naming `what` when it failed. */
export async function ok(response: Response, what: string): Promise<any> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

/** Signs in through the API (no TOTP) and unlocks the account keys in Bun. */
export async function apiLogin(baseUrl: string, user: Pick<TestUser, 'username' | 'password'>): Promise<ApiSession> {
  const lookup = await ok(await fetch(`${baseUrl}/api/users/search/${encodeURIComponent(user.username)}?limit=1`), 'lookup');
  const hash = await deriveLoginPassword(user.password, lookup[0].passwordSalt, lookup[0].kdf as KdfParams);
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: hash }),
  });
  const answer = await ok(response, 'login');
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  // Version 2 derives the wrapping key from the lookup's passwordSalt (docs/protocol.md "Account").
  const keys = await unlockAccount(user.password, { ...answer, passwordSalt: lookup[0].passwordSalt });
  return { baseUrl, cookie, userId: answer.user.id, rootKey: keys.rootKey, keys };
}

export interface ApiFolder {
  id: string;
  key: Uint8Array;
}

/** Folder metadata exactly as the browser's worker makes it (docs/protocol.md "Items"). */
export async function folderMetadata(wrapping: CryptoKey | Uint8Array, parentId: string | null, name: string) {
  const id = newItemId();
  const key = newItemKey();
  const [sealedName, wrapped] = await Promise.all([encryptName(key, id, name), wrapItemKey(wrapping, id, key)]);
  return { metadata: { id, parentId, isDirectory: true, ...sealedName, ...wrapped }, key };
}

/**
 * File metadata exactly as the browser's worker makes it: a fresh K wrapped under `wrapping`,
 * name and mime sealed under K, and a fresh file nonce; `size` is the ciphertext's length. K and
 * the nonce come back for encrypting the content.
 */
export async function fileMetadata(
  wrapping: CryptoKey | Uint8Array,
  parentId: string | null,
  name: string,
  mimeType: string,
  size: number,
) {
  const id = newItemId();
  const key = newItemKey();
  const fileNonce = newFileNonce();
  const [sealedName, sealedMime, wrapped] = await Promise.all([
    encryptName(key, id, name),
    encryptMime(key, id, mimeType),
    wrapItemKey(wrapping, id, key),
  ]);
  const metadata = {
    id,
    parentId,
    isDirectory: false,
    ...sealedName,
    ...sealedMime,
    ...wrapped,
    fileNonce: toBase64(fileNonce),
    size,
  };
  return { metadata, key, fileNonce };
}

/**
 * POST /api/upload: creates a folder, a file of one part (its ciphertext in `file`), or starts
 * a file sent in parts (answers its uploadId).
 */
export async function postUpload(session: ApiSession, metadata: { id: string }, what: string, cipher?: Uint8Array): Promise<any> {
  const body = new FormData();
  body.set('metadata', JSON.stringify(metadata));
  if (cipher) body.set('file', new File([cipher as Uint8Array<ArrayBuffer>], 'blob'));
  return ok(await fetch(`${session.baseUrl}/api/upload`, { method: 'POST', headers: { cookie: session.cookie }, body }), what);
}

export async function apiCreateFolder(session: ApiSession, parent: ApiFolder | null, name: string): Promise<ApiFolder> {
  const { metadata, key } = await folderMetadata(parent ? parent.key : session.rootKey, parent?.id ?? null, name);
  await postUpload(session, metadata, `create folder ${name}`);
  return { id: metadata.id, key };
}

/**
 * Uploads one small file (it fits one part) as the browser's worker does: the content encrypted
 * in chunks under K and the file nonce. `parent` null: at the top of the account.
 */
export async function apiUploadFile(
  session: ApiSession,
  parent: ApiFolder | null,
  name: string,
  content: Uint8Array,
  mimeType = 'application/octet-stream',
): Promise<ApiFolder> {
  const { metadata, key, fileNonce } = await fileMetadata(
    parent ? parent.key : session.rootKey,
    parent?.id ?? null,
    name,
    mimeType,
    ciphertextSize(content.length),
  );
  const cipher = new Uint8Array(
    await new Response(
      new Blob([content as Uint8Array<ArrayBuffer>]).stream().pipeThrough(createEncryptStream(key, fileNonce)),
    ).arrayBuffer(),
  );
  await postUpload(session, metadata, `upload ${name}`, cipher);
  return { id: metadata.id, key };
}

/** A new account signed in through the API, with one folder `name` at the top, where most journeys start. */
export async function apiUserWithFolder(baseUrl: string, name: string, options?: Parameters<typeof createUser>[1]) {
  const user = await createUser(baseUrl, options);
  const session = await apiLogin(baseUrl, user);
  const folder = await apiCreateFolder(session, null, name);
  return { user, session, folder };
}

/** Creates `names` under `parent`, `concurrency` requests at a time. */
export async function apiCreateFolders(
  session: ApiSession,
  parent: ApiFolder | null,
  names: string[],
  concurrency = 16,
): Promise<ApiFolder[]> {
  const out: ApiFolder[] = new Array(names.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, names.length) }, async () => {
      while (next < names.length) {
        const i = next++;
        out[i] = await apiCreateFolder(session, parent, names[i]!);
      }
    }),
  );
  return out;
}

/** Renames an item as the browser does: the new name sealed under the item's own key. */
export async function apiRename(session: ApiSession, item: ApiFolder, name: string): Promise<void> {
  const sealed = await encryptName(item.key, item.id, name);
  const response = await fetch(`${session.baseUrl}/api/file/${item.id}`, {
    method: 'PUT',
    headers: { cookie: session.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'rename', encryptedName: sealed.encryptedFileName, nameNonce: sealed.nameNonce }),
  });
  await ok(response, `rename ${name}`);
}

/** Signs `page` in through the login page and waits for the file browser (My Files). */
export async function signInToFiles(page: Page, baseUrl: string, user: TestUser): Promise<Page> {
  await loginViaUi(page, baseUrl, user);
  await page.getByRole('heading', { name: 'My Files' }).waitFor();
  return page;
}

/** A folder's link in the file browser's listing. */
export const folderLink = (page: Page, name: string) => page.locator('.browser__body').getByRole('button', { name, exact: true });

/**
 * Opens a listed folder and waits until the breadcrumb shows it: what is picked or dropped next
 * goes into the folder on screen, so a pick made before the navigation lands would go to the old one.
 */
export async function openFolder(page: Page, name: string): Promise<void> {
  await folderLink(page, name).click();
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText(name).first().waitFor();
}

/** Creates a folder in the open folder through the New Folder dialog and waits for it to be listed. */
export async function createFolderViaUi(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create folder' });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await folderLink(page, name).waitFor();
}
