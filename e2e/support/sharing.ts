/**
 * Sharing with named users through the real API, with the real crypto package (the same grant
 * the browser's worker makes: K wrapped to the recipient's RSA key, the grant signed by the
 * sharer). `signature` lets a test play a server that plants a grant nobody signed.
 */
import { signGrant, wrapKeyForUser } from '@sealbox/crypto';
import type { Page } from 'playwright-core';
import type { ApiFolder, ApiSession } from './files.ts';

/** A link's page, opened: its heading says who shared what ("alice shared “Trip 2026”"). */
export const linkPageHeading = (page: Page) => page.getByRole('heading', { level: 1, name: /^(.+ shared|Shared with you:) “/ });

export interface PublicUser {
  id: string;
  username: string;
  publicKey: string;
  signingPublicKey: string;
}

async function ok(response: Response, what: string): Promise<any> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

const send = (session: ApiSession, method: string, path: string, body: unknown) =>
  fetch(`${session.baseUrl}${path}`, {
    method,
    headers: { cookie: session.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

export async function publicUser(session: ApiSession, id: string): Promise<PublicUser> {
  return ok(await fetch(`${session.baseUrl}/api/user/${id}`, { headers: { cookie: session.cookie } }), 'user');
}

/** POST /api/share type link (no expiry unless given); answers the link's id. */
export async function apiCreateLink(
  session: ApiSession,
  itemId: string,
  options: { password?: string | null; edit?: boolean; expires?: number } = {},
): Promise<string> {
  const body = {
    type: 'link',
    id: itemId,
    expires: options.expires ?? 0,
    password: options.password ?? null,
    edit: !!options.edit,
  };
  return ((await ok(await send(session, 'POST', '/api/share', body), 'share link')) as { linkId: string }).linkId;
}

/** POST /api/share type user; answers the wrapped key it sent. */
export async function apiShareWithUser(
  session: ApiSession,
  item: ApiFolder,
  recipient: PublicUser,
  edit: boolean,
  { signature }: { signature?: string } = {},
): Promise<string> {
  const encryptedKey = await wrapKeyForUser(recipient.publicKey, item.key);
  const grant = { sharerId: session.userId, recipientId: recipient.id, itemId: item.id, encryptedKey, edit };
  await ok(
    await send(session, 'POST', '/api/share', {
      type: 'user',
      id: item.id,
      userId: recipient.id,
      encryptedKey,
      edit,
      signature: signature ?? (await signGrant(session.keys.signingPrivateKey, grant)),
    }),
    'share',
  );
  return encryptedKey;
}

/** PUT /api/share type user: viewer or editor, signed again over the same wrapped key. */
export async function apiSwitchUser(
  session: ApiSession,
  item: ApiFolder,
  recipient: PublicUser,
  encryptedKey: string,
  edit: boolean,
): Promise<void> {
  const signature = await signGrant(session.keys.signingPrivateKey, {
    sharerId: session.userId,
    recipientId: recipient.id,
    itemId: item.id,
    encryptedKey,
    edit,
  });
  await ok(
    await send(session, 'PUT', '/api/share', { type: 'user', fileId: item.id, userId: recipient.id, edit, signature }),
    'switch',
  );
}

export async function apiRevokeUser(session: ApiSession, item: ApiFolder, recipient: PublicUser): Promise<void> {
  await ok(await send(session, 'DELETE', '/api/shared', { type: 'user', fileId: item.id, userId: recipient.id }), 'revoke');
}
