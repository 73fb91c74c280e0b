/**
 * Items for journeys and benchmarks, made through the real API with the real crypto package
 * (the same formats the browser makes): sign in from Bun, unlock the account to get the root
 * key, then create folders under it. Much faster than clicking through dialogs. The UI helpers
 * at the end drive the file browser itself, for journeys that are about the pages.
 */
import {
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
import { loginViaUi, type TestUser } from './accounts.ts';

export interface ApiSession {
  baseUrl: string;
  cookie: string;
  userId: string;
  rootKey: CryptoKey;
  /** Every key of the account (signing grants, unwrapping shared keys). */
  keys: AccountKeys;
}

async function ok(response: Response, what: string): Promise<any> {
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

export async function apiCreateFolder(session: ApiSession, parent: ApiFolder | null, name: string): Promise<ApiFolder> {
  const { metadata, key } = await folderMetadata(parent ? parent.key : session.rootKey, parent?.id ?? null, name);
  const body = new FormData();
  body.set('metadata', JSON.stringify(metadata));
  await ok(
    await fetch(`${session.baseUrl}/api/upload`, { method: 'POST', headers: { cookie: session.cookie }, body }),
    `create folder ${name}`,
  );
  return { id: metadata.id, key };
}

/**
 * Uploads one small file (it fits one part) as the browser's worker does: K wraps under the
 * parent's K, name and mime sealed under K, the content encrypted in chunks under K and a file nonce.
 */
export async function apiUploadFile(
  session: ApiSession,
  parent: ApiFolder,
  name: string,
  content: Uint8Array,
  mimeType = 'application/octet-stream',
): Promise<ApiFolder> {
  const id = newItemId();
  const key = newItemKey();
  const fileNonce = newFileNonce();
  const [sealedName, sealedMime, wrapped] = await Promise.all([
    encryptName(key, id, name),
    encryptMime(key, id, mimeType),
    wrapItemKey(parent.key, id, key),
  ]);
  const cipher = new Uint8Array(
    await new Response(
      new Blob([content as Uint8Array<ArrayBuffer>]).stream().pipeThrough(createEncryptStream(key, fileNonce)),
    ).arrayBuffer(),
  );
  const metadata = {
    id,
    parentId: parent.id,
    isDirectory: false,
    ...sealedName,
    ...sealedMime,
    ...wrapped,
    fileNonce: toBase64(fileNonce),
    size: cipher.length,
  };
  const body = new FormData();
  body.set('metadata', JSON.stringify(metadata));
  body.set('file', new File([cipher], 'blob'));
  await ok(
    await fetch(`${session.baseUrl}/api/upload`, { method: 'POST', headers: { cookie: session.cookie }, body }),
    `upload ${name}`,
  );
  return { id, key };
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

/** Creates a folder in the open folder through the New Folder dialog and waits for it to be listed. */
export async function createFolderViaUi(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create folder' });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await folderLink(page, name).waitFor();
}
