/**
 * What other users shared with the signed-in user (docs/cli.md "Shared with me"), opened as the
 * web app opens /shared (docs/protocol.md "Sharing with a user" and "Key rings"): for each entry
 * of GET /api/shared, the sharer's keys checked against the account's pins (pinned on first use),
 * the grant's signature verified for this item, this user and the edit flag the server states,
 * and K unwrapped with the user's RSA key. A grant is honoured only when its sharer is the item's
 * owner and that owner is not the user; one for the user's own item is dropped. A grant that does
 * not verify is listed as unverified, and nothing is read through it. Paths: `shared:` lists the
 * shares, `shared:<name>/...` goes into one (names as the web app shows them).
 */
import { type AccountKeys, unwrapKeyFromUser, verifyGrant } from '@sealbox/crypto';
import { nameKey } from '@sealbox/rules';
import { CliError, EXIT } from './cli-error.ts';
import { type Connection, answer } from './client.ts';
import {
  type Folder,
  type OpenFolder,
  type RemoteItem,
  RemoteTree,
  isFolder,
  openOutsideRoot,
  pathSegments,
  showPath,
} from './remote-tree.ts';
import { type PublicUser, pinKeys } from './sharing.ts';

export const SHARED_PREFIX = 'shared:';

export const isSharedPath = (path: string) => path.startsWith(SHARED_PREFIX);

export interface SharedEntry {
  /** Opened with the grant's K (name null when it did not open). */
  item: RemoteItem;
  owner: string;
  edit: boolean;
  /** The grant verified against the sharer's pinned keys, and the sharer is the owner. */
  verified: boolean;
}

const PAGE = 1000;

/** Every share the user received, opened. */
export async function sharedWithMe(conn: Connection, me: { userId: string; keys: AccountKeys }): Promise<SharedEntry[]> {
  const entries: SharedEntry[] = [];
  const sharers = new Map<string, Promise<{ user: PublicUser; trusted: boolean }>>();
  const sharer = (id: string) => {
    let known = sharers.get(id);
    if (!known) {
      known = (async () => {
        const user = (await answer(conn.api.api.user({ id }).get(), conn.server)) as PublicUser;
        return { user, trusted: (await pinKeys(conn, me, user)).status !== 'changed' };
      })();
      sharers.set(id, known);
    }
    return known;
  };
  for (let offset = 0; ; offset += PAGE) {
    const page = await answer(conn.api.api.shared.get({ query: { limit: PAGE, offset } }), conn.server);
    const names = new Map(page.users.map((user) => [user.id, user.username]));
    for (const file of page.files) {
      // Rule 3: only owners share, never to themselves; the user's own item is not a share.
      if (file.ownerId === me.userId) continue;
      const { grant } = file;
      const from = await sharer(grant.sharerId);
      let verified = from.trusted && grant.sharerId === file.ownerId && grant.userId === me.userId;
      if (verified) {
        const claim = {
          sharerId: grant.sharerId,
          recipientId: me.userId,
          itemId: file.id,
          encryptedKey: grant.encryptedKey,
          edit: grant.editPermission,
        };
        verified = await verifyGrant(from.user.signingPublicKey, claim, grant.signature).then(
          () => true,
          () => false,
        );
      }
      const key = await unwrapKeyFromUser(me.keys.encryptionPrivateKey, grant.encryptedKey).catch(() => null);
      const item = await openOutsideRoot(file, key);
      entries.push({ item, owner: names.get(file.ownerId) ?? file.ownerId, edit: grant.editPermission, verified });
    }
    if (page.nextOffset === null) return entries;
  }
}

/**
 * What a `shared:` path names: the list of shares (no name after the prefix), or an item inside
 * one, with the tree to read it through. A share that did not verify is refused (exit 7).
 */
export async function resolveShared(
  conn: Connection,
  entries: readonly SharedEntry[],
  path: string,
): Promise<{ list: true } | { list: false; at: Folder | RemoteItem; tree: RemoteTree | undefined }> {
  const [first, ...rest] = pathSegments(path.slice(SHARED_PREFIX.length));
  if (first === undefined) return { list: true };
  const found = entries.filter((entry) => entry.item.name !== null && nameKey(entry.item.name) === nameKey(first));
  if (found.length > 1) {
    const ids = found.map((entry) => entry.item.id).join(', ');
    throw new CliError(`${SHARED_PREFIX}${first} names ${found.length} shares (ids ${ids}).`, EXIT.conflict);
  }
  const entry = found[0];
  if (!entry) throw new CliError(`${SHARED_PREFIX}${first}: nothing of that name is shared with you.`, EXIT.notFound);
  if (!entry.verified || !entry.item.key)
    throw new CliError(`${SHARED_PREFIX}${first}: this share could not be verified; nothing is read through it.`, EXIT.integrity);
  if (!isFolder(entry.item)) {
    if (rest.length > 0) throw new CliError(`${SHARED_PREFIX}${first} is a file, not a folder.`, EXIT.notFound);
    return { list: false, at: entry.item, tree: undefined };
  }
  const tree = new RemoteTree(conn, entry.item as OpenFolder);
  return { list: false, at: await tree.resolve(showPath(rest)), tree };
}
