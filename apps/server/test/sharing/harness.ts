import { createAccount, signGrant, wrapKeyForUser, type AccountKeys, type Registration } from '@sealbox/crypto';
import { Browser, uniqueName } from '../accounts/harness.ts';
import { snapshot as filesSnapshot, postMade, type FilesHarness, type Made, type User } from '../files/harness.ts';

/**
 * Users with real key pairs (one RSA-4096 + Ed25519 account made per run, registered under
 * many names): grants are wrapped with RSA-OAEP and signed as the browser does, so the server
 * sees exactly the shapes it must check, and a test can verify what it hands back.
 */
let account: Promise<{ registration: Registration; keys: AccountKeys }> | undefined;
export function sharingAccount() {
  account ??= createAccount('correct horse battery staple');
  return account;
}

export interface KeyedUser extends User {
  username: string;
  keys: AccountKeys;
}

export async function keyedUser(h: FilesHarness, app = h.app, ip = '203.0.113.1'): Promise<KeyedUser> {
  const { registration, keys } = await sharingAccount();
  const browser = new Browser(app, { ip });
  const username = uniqueName('s');
  const created = await browser.post('/api/register', { ...registration, username, email: null });
  if (created.status !== 201) throw new Error(`register failed: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await browser.post('/api/login', { username, password: registration.password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const rootKey = crypto.getRandomValues(new Uint8Array(32));
  return { browser, id: created.body.id as string, rootKey, username, keys };
}

/** The browser's share: K wrapped to the recipient's RSA key and the grant signed by the sharer. */
export async function grant(sharer: KeyedUser, item: Made, recipientId: string, edit: boolean) {
  const encryptedKey = await wrapKeyForUser(sharer.keys.publicKey, item.key);
  const signature = await signGrant(sharer.keys.signingPrivateKey, {
    sharerId: sharer.id,
    itemId: item.id,
    recipientId,
    encryptedKey,
    edit,
  });
  return { encryptedKey, signature };
}

export async function shareWith(sharer: KeyedUser, item: Made, recipientId: string, edit: boolean) {
  const body = { type: 'user', id: item.id, userId: recipientId, edit, ...(await grant(sharer, item, recipientId, edit)) };
  const answer = await sharer.browser.post('/api/share', body);
  if (answer.status !== 201) throw new Error(`share failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function makeLink(
  owner: User,
  item: Made,
  options: { edit?: boolean; expires?: number; password?: string } = {},
): Promise<string> {
  const answer = await owner.browser.post('/api/share', {
    type: 'link',
    id: item.id,
    expires: options.expires ?? 0,
    edit: options.edit ?? false,
    ...(options.password === undefined ? {} : { password: options.password }),
  });
  if (answer.status !== 201) throw new Error(`link failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.linkId as string;
}

/** Creates the item as `user` (optionally through a link): metadata from folderMeta/fileMeta. */
export async function create(user: { browser: Browser }, made: Made & { cipher?: Uint8Array<ArrayBuffer> }, query = '') {
  return postMade(user.browser, made, `/api/upload${query}`);
}

/** `path` with `?linkId=` (or `&linkId=`) added when a link is given. */
export function withLink(path: string, linkId?: string): string {
  if (linkId === undefined) return path;
  return `${path}${path.includes('?') ? '&' : '?'}linkId=${encodeURIComponent(linkId)}`;
}

/** Everything a refused call must leave untouched, sharing rows included. */
export async function snapshot(h: FilesHarness) {
  const k = h.db.kysely;
  return {
    ...(await filesSnapshot(h)),
    accesses: await k.selectFrom('accesses').selectAll().orderBy('item_id').orderBy('user_id').execute(),
    links: await k.selectFrom('links').selectAll().orderBy('id').execute(),
  };
}

export const anonymous = (h: FilesHarness, ip = '198.51.100.7') => new Browser(h.app, { ip });
