/**
 * The mix each user draws its next request from: its own files (actions.ts), sharing with another
 * user (a real signed grant) and listing what was shared, opening a link as a visitor without a
 * session, and reopening the live socket.
 */
import { signGrant, wrapKeyForUser } from '@sealbox/crypto';
import { list, makeFolder, move, pick, rangeRead, remove, rename, uploadLarge, uploadSmall } from './actions.ts';
import { call, check, openSocket } from './client.ts';
import { type SoakUser, users } from './users.ts';

async function share(user: SoakUser): Promise<void> {
  const recipient = users[(user.index + 1 + Math.floor(Math.random() * (users.length - 1))) % users.length]!;
  const item = user.folders.find((f) => !user.shared.has(`${f.id}:${recipient.session.userId}`));
  if (!item) {
    const response = await call('GET', '/api/shared', { cookie: user.session.cookie });
    if (response) check(response.status === 200, `shared ${response.status}`);
    return;
  }
  const lookup = await call('GET', `/api/user/${recipient.session.userId}`, { cookie: user.session.cookie });
  if (!lookup || !check(lookup.status === 200, `user ${lookup?.status}`)) return;
  const { publicKey } = (await lookup.json()) as { publicKey: string };
  const encryptedKey = await wrapKeyForUser(publicKey, item.key);
  const signature = await signGrant(user.session.keys.signingPrivateKey, {
    sharerId: user.session.userId,
    recipientId: recipient.session.userId,
    itemId: item.id,
    encryptedKey,
    edit: false,
  });
  const response = await call('POST', '/api/share', {
    cookie: user.session.cookie,
    json: { type: 'user', id: item.id, userId: recipient.session.userId, encryptedKey, signature, edit: false },
  });
  if (response && check(response.status === 201, `share ${response.status}`))
    user.shared.add(`${item.id}:${recipient.session.userId}`);
  // The recipient's tab fetches what is shared with them.
  const theirs = await call('GET', '/api/shared', { cookie: recipient.session.cookie });
  if (theirs) check(theirs.status === 200, `shared ${theirs.status}`);
}

async function openLink(user: SoakUser): Promise<void> {
  const file = user.files.find((f) => !f.large);
  if (!file) return uploadSmall(user);
  let linkId = user.links.length >= 5 ? pick(user.links).linkId : undefined;
  const password = 'soak link pass';
  if (!linkId) {
    const made = await call('POST', '/api/share', {
      cookie: user.session.cookie,
      json: { type: 'link', id: file.id, expires: 0, password, edit: false },
    });
    if (!made || !check(made.status === 201, `link ${made.status}`)) return;
    linkId = ((await made.json()) as { linkId: string }).linkId;
    user.links.push({ linkId, fileId: file.id });
  }
  // A visitor: the link's info, the password, then one Range read of the file it names.
  const info = await call('GET', `/api/shared/${linkId}`);
  if (!info) return;
  check(info.status === 401 || info.status === 404, `link info without proof ${info.status}`);
  if (info.status === 404) return;
  const opened = await call('POST', `/api/shared/${linkId}`, { json: { password } });
  if (!opened || !check(opened.status === 200, `open link ${opened.status}`)) return;
  const cookie = opened.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { itemId } = (await opened.json()) as { itemId: string };
  const target = user.files.find((f) => f.id === itemId);
  if (target) await rangeRead(user, { linkId, cookie }, target);
}

const MIX: Array<[number, (user: SoakUser) => Promise<void>]> = [
  [30, list],
  [14, uploadSmall],
  [2, uploadLarge],
  [16, (user) => rangeRead(user)],
  [8, rename],
  [6, move],
  [5, makeFolder],
  [4, share],
  [6, openLink],
  [3, (user) => remove(user, false)],
  [3, openSocket],
];
const WEIGHT = MIX.reduce((sum, [w]) => sum + w, 0);
export const chooseAction = () => {
  let r = Math.random() * WEIGHT;
  for (const [w, action] of MIX) {
    r -= w;
    if (r < 0) return action;
  }
  return list;
};
