/**
 * The owner's sharing calls of docs/protocol.md ("Sharing"), over the one Eden client: the user
 * search, the access list and links of an item, and sharing, switching and revoking. They carry
 * grants and signatures made in the crypto worker, never a key; a failed call throws an
 * HttpStatusError with the server's message.
 */
import type { LinkView, PublicUser } from '@sealbox/rules';
import { api, errorMessageOf } from '../../../lib/api.ts';
import { shownUsername } from '../../../model/item-names.ts';
import { HttpStatusError } from '../../../lib/http-status-error.ts';
import { SEARCH_LIMIT } from './share-logic.ts';

/** A user as the search and the access list answer them: enough to show and to share with. */
export type { PublicUser };

/** One access entry of an item (AccessView). */
export interface AccessEntry {
  userId: string;
  editPermission: boolean;
  encryptedKey: string;
  signature: string;
  sharerId: string;
  createdAt: number | string;
}

export interface AccessList {
  access: AccessEntry[];
  users: PublicUser[];
}

/** One link of an item. */
export type ShareLink = LinkView;

type EdenResult = { data: unknown; error: { value: unknown } | null; status: number };

function checked<T>(result: EdenResult, what: string): T {
  if (result.error !== null || result.status < 200 || result.status >= 300)
    throw new HttpStatusError(result.status, errorMessageOf(result.error) ?? `${what} failed (${result.status})`);
  return result.data as T;
}

/** GET /api/users/search/{name}?limit=10 (signed in; the caller is never among the answers). */
export async function searchUsers(name: string): Promise<PublicUser[]> {
  const found = checked<PublicUser[]>(
    await api.api.users.search({ name }).get({ query: { limit: SEARCH_LIMIT } }),
    'User search',
  );
  return Array.isArray(found) ? found.map(shownUser) : [];
}

/** A user as the dialogs show them: a username's bidi controls written out (model/item-names.ts). */
function shownUser<U extends { username: string }>(user: U): U {
  return { ...user, username: shownUsername(user.username) };
}

/** GET /api/shared/{fileId}/users: who has access, with their public keys. */
export async function fetchAccess(itemId: string): Promise<AccessList> {
  const list = checked<AccessList>(await api.api.shared({ id: itemId }).users.get(), 'Access list');
  return { access: list?.access ?? [], users: (list?.users ?? []).map(shownUser) };
}

/** GET /api/shared/{fileId}/links: the item's links not yet expired, oldest first. */
export async function fetchLinks(itemId: string): Promise<ShareLink[]> {
  const links = checked<ShareLink[]>(await api.api.shared({ id: itemId }).links.get(), 'Links');
  return Array.isArray(links) ? links : [];
}

/** POST /api/share type user: the grant the worker made for this recipient. */
export async function shareWithUser(body: {
  id: string;
  userId: string;
  encryptedKey: string;
  signature: string;
  edit: boolean;
}): Promise<void> {
  checked(await api.api.share.post({ type: 'user', ...body }), 'Share');
}

/** PUT /api/share type user: viewer/editor, with the grant signed again. */
export async function changeUserShare(body: { fileId: string; userId: string; edit: boolean; signature: string }): Promise<void> {
  checked(await api.api.share.put({ type: 'user', ...body }), 'Permission change');
}

/** DELETE /api/shared type user. */
export async function revokeUser(body: { fileId: string; userId: string }): Promise<void> {
  checked(await api.api.shared.delete({ type: 'user', ...body }), 'Revoke');
}

/** POST /api/share type link: answers the new link. */
export async function createLink(body: { id: string; expires: number; password?: string; edit: boolean }): Promise<ShareLink> {
  return checked<ShareLink>(await api.api.share.post({ type: 'link', ...body }), 'Link');
}

/** PUT /api/share type link: `edit` switches the role; `password` sets or changes it, null removes it. */
export async function changeLink(body: {
  linkId: string;
  edit?: boolean;
  password?: string | null;
  expires?: number;
}): Promise<void> {
  checked(await api.api.share.put({ type: 'link', ...body }), 'Link change');
}

/** DELETE /api/shared type link. */
export async function revokeLink(linkId: string): Promise<void> {
  checked(await api.api.shared.delete({ type: 'link', linkId }), 'Revoke');
}
