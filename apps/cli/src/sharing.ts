/**
 * `share` and `link` (docs/cli.md "Sharing"), as the web app's crypto worker shares
 * (docs/protocol.md "Sharing with a user", "Fingerprints and pinning", "Share links"): only the
 * owner's own items, K taken from the own tree (never from a grant or link); the recipient's keys
 * checked against the account's pins (pinned on first use, written compare-and-set with the
 * server, so the web app and the CLI trust the same keys) before K is wrapped to them; the grant
 * signed with the account's signing key. A link's URL carries K in its fragment, which never
 * reaches the server.
 */
import {
  type AccountKeys,
  type Pins,
  encodeLinkKey,
  fingerprint,
  formatFingerprint,
  openPins,
  sealPins,
  signGrant,
  wrapKeyForUser,
} from '@sealbox/crypto';
import { SHARE_WITH_SELF_TEXT, USER_NOT_FOUND_TEXT } from '@sealbox/rules';
import { CliError, EXIT } from './cli-error.ts';
import { type Connection, answer } from './client.ts';

export interface PublicUser {
  id: string;
  username: string;
  publicKey: string;
  signingPublicKey: string;
}

/** A user by exact name (the login lookup), then their public keys. */
export async function findUser(conn: Connection, username: string): Promise<PublicUser> {
  const found = await conn.api.api.users.search({ name: username }).get({ query: { limit: 1 } });
  if (found.status === 404) throw new CliError(`${USER_NOT_FOUND_TEXT}: ${username}`, EXIT.notFound);
  const [entry] = (await answer(Promise.resolve(found), conn.server)) as Array<{ id: string }>;
  if (!entry) throw new CliError(`${USER_NOT_FOUND_TEXT}: ${username}`, EXIT.notFound);
  return answer(conn.api.api.user({ id: entry.id }).get(), conn.server);
}

async function readPins(conn: Connection, me: { userId: string; keys: AccountKeys }): Promise<{ pins: Pins; version: number }> {
  const stored = await answer(conn.api.api.profile.pins.get(), conn.server);
  if (!stored.sealed || !stored.nonce) return { pins: {}, version: stored.version };
  try {
    return { pins: await openPins(me.keys.rootKey, me.userId, stored.sealed, stored.nonce), version: stored.version };
  } catch {
    // Altered or swapped pins: trust nothing rather than start again from first use.
    throw new CliError('The key pins stored with the account do not open: refusing to trust any key.', EXIT.integrity);
  }
}

/**
 * `user`'s keys against the account's pins, pinning them on first use (merged into whatever
 * another device wrote meanwhile): 'known' (as pinned), 'new' (pinned just now) or 'changed'.
 */
export async function pinKeys(conn: Connection, me: { userId: string; keys: AccountKeys }, user: PublicUser) {
  const hex = await fingerprint(user.publicKey, user.signingPublicKey);
  for (let attempt = 0; attempt < 5; attempt++) {
    const { pins, version } = await readPins(conn, me);
    const pinned = pins[user.id];
    if (pinned === hex) return { fingerprint: formatFingerprint(hex), status: 'known' as const };
    if (pinned !== undefined) return { fingerprint: formatFingerprint(hex), status: 'changed' as const };
    const sealed = await sealPins(me.keys.rootKey, me.userId, { ...pins, [user.id]: hex });
    const written = await conn.api.api.profile.pins.put({ ...sealed, version });
    if (written.status !== 409) {
      await answer(Promise.resolve(written), conn.server);
      return { fingerprint: formatFingerprint(hex), status: 'new' as const };
    }
  }
  throw new CliError('The key pins kept changing on another device: try again.', EXIT.failed);
}

/** Refuses keys that differ from the pin (pinned on first use); answers the fingerprint and whether it was pinned just now. */
async function checkPinned(conn: Connection, me: { userId: string; keys: AccountKeys }, user: PublicUser) {
  if (user.id === me.userId) throw new CliError(SHARE_WITH_SELF_TEXT, EXIT.usage);
  const pin = await pinKeys(conn, me, user);
  if (pin.status === 'changed') {
    throw new CliError(
      `${user.username}'s keys changed since you first shared with them (now ${pin.fingerprint}). Compare fingerprints and accept the new keys in the web app's Share dialog first.`,
      EXIT.integrity,
    );
  }
  return { fingerprint: pin.fingerprint, pinnedNow: pin.status === 'new' };
}

/** POST /api/share type user: K wrapped to the recipient's pinned key and the grant signed. */
export async function shareWithUser(
  conn: Connection,
  me: { userId: string; keys: AccountKeys },
  item: { id: string; key: Uint8Array },
  user: PublicUser,
  edit: boolean,
) {
  const pin = await checkPinned(conn, me, user);
  const encryptedKey = await wrapKeyForUser(user.publicKey, item.key);
  const signature = await signGrant(me.keys.signingPrivateKey, {
    sharerId: me.userId,
    recipientId: user.id,
    itemId: item.id,
    encryptedKey,
    edit,
  });
  const made = await conn.api.api.share.post({ type: 'user', id: item.id, userId: user.id, encryptedKey, edit, signature });
  if (made.status === 409) throw new CliError(`Already shared with ${user.username}.`, EXIT.conflict);
  await answer(Promise.resolve(made), conn.server);
  return pin;
}

/** `7d`, `12h`, `30m`, `never`: seconds from now (0: never), as POST /api/share takes them. */
export function expirySeconds(text: string): number {
  if (text === 'never') return 0;
  const match = /^(\d{1,6})([mhdw])$/.exec(text);
  if (!match) throw new CliError(`--expires takes e.g. 30m, 12h, 7d, 4w or never, not "${text}".`, EXIT.usage);
  const unit = { m: 60, h: 3600, d: 86_400, w: 604_800 }[match[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(match[1]) * unit;
}

/** POST /api/share type link; answers the URL to hand out (K in the fragment) and the link's facts. */
export async function makeLink(
  conn: Connection,
  item: { id: string; key: Uint8Array },
  options: { expires: number; password: string | null; edit: boolean },
) {
  const link = await answer(
    conn.api.api.share.post({
      type: 'link',
      id: item.id,
      expires: options.expires,
      password: options.password,
      edit: options.edit,
    }),
    conn.server,
  );
  const linkId = (link as { linkId: string }).linkId;
  return { url: `${conn.server}/share?linkId=${encodeURIComponent(linkId)}#${encodeLinkKey(item.key)}`, link };
}
