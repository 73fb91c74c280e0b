/**
 * Opening a share link without an account (docs/cli.md "Links"): the URL's fragment is the item's
 * K (docs/protocol.md "Share links"; it never reaches the server), `linkId` goes with every files
 * call, and a password link is passed with POST /api/shared/{linkId}, whose access proof cookie
 * then rides along. The linked item is taken only when its name opens under the fragment's key.
 */
import { decodeLinkKey } from '@sealbox/crypto';
import { CliError, EXIT } from './cli-error.ts';
import { type Connection, answer, apiClient, cookieSet } from './client.ts';
import { type RemoteItem, RemoteTree, isFolder, openOutsideRoot } from './remote-tree.ts';
import { readLinkPassword } from './secrets.ts';

/** Whether a `get` source is a link URL rather than a remote path. */
export const isLinkUrl = (source: string) => /^https?:\/\//i.test(source);

export function parseLinkUrl(url: string): { server: string; linkId: string; key: Uint8Array } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`Not a link: ${url}`, EXIT.usage);
  }
  const linkId = parsed.searchParams.get('linkId');
  const fragment = parsed.hash.slice(1);
  if (!parsed.pathname.endsWith('/share') || !linkId || !fragment) {
    throw new CliError('Not a Sealbox link: expected …/share?linkId=…#key (the part after # is the key).', EXIT.usage);
  }
  let key: Uint8Array;
  try {
    key = decodeLinkKey(fragment);
  } catch {
    throw new CliError('The link’s key (after #) is damaged: copy the whole link again.', EXIT.usage);
  }
  const server = parsed.origin + parsed.pathname.slice(0, -'/share'.length);
  return { server, linkId, key };
}

/** Passes the link's password gate when it has one; answers the cookie to send (or ''). */
async function passGate(server: string, linkId: string): Promise<string> {
  const api = apiClient(server);
  const state = await api.api.shared({ id: linkId }).get();
  if (state.response === undefined) throw new CliError(`Cannot reach ${server}.`, EXIT.network);
  if (state.status === 404) throw new CliError('Link not found.', EXIT.notFound);
  if (state.status !== 401) {
    await answer(Promise.resolve(state), server);
    return '';
  }
  const result = await api.api.shared({ id: linkId }).post({ password: await readLinkPassword() });
  if (result.status === 401) throw new CliError('Invalid password!', EXIT.auth);
  await answer(Promise.resolve(result), server);
  const name = `sealbox_link_${linkId}`;
  const proof = cookieSet(result.response!, name);
  const cookie = proof === undefined ? undefined : `${name}=${proof}`;
  if (!cookie) throw new CliError('The server let the password through without an access proof.', EXIT.failed);
  return cookie;
}

/** The linked item, opened, and for a folder a tree that starts at it. */
export async function openLink(url: string): Promise<{ conn: Connection; root: RemoteItem; tree: RemoteTree | undefined }> {
  const { server, linkId, key } = parseLinkUrl(url);
  const cookie = await passGate(server, linkId);
  const conn: Connection = { server, cookie, linkId, api: apiClient(server, cookie || undefined) };
  const listing = await answer(conn.api.api.file.get({ query: { linkId, depth: 1, limit: 1, offset: 0 } }), server);
  if (listing instanceof Response || !listing.root) throw new CliError('Link not found.', EXIT.notFound);
  const root = await openOutsideRoot(listing.root, key);
  if (root.name === null) throw new CliError('This link could not be verified.', EXIT.integrity);
  return { conn, root, tree: isFolder(root) ? new RemoteTree(conn, root) : undefined };
}
