/**
 * The commands of docs/cli.md: each takes its parsed arguments and writes its result through
 * `out` (text for people, one JSON document with --json). Failures are CliErrors (cli-error.ts).
 */
import { nameTakenText } from '@sealbox/rules';
import { login, logout, sealedKeys, unlock } from './account.ts';
import { CliError, EXIT } from './cli-error.ts';
import { answer, connect } from './client.ts';
import { forgetSession, loadSession, saveSession, type StoredSession } from './config.ts';
import { forgetKeyring, saveKeyring } from './keyring.ts';
import { SHARED_PREFIX, type SharedEntry, isSharedPath, resolveShared, sharedWithMe } from './shared.ts';
import { type Folder, type RemoteItem, RemoteTree, isFolder, pathSegments, showPath } from './remote-tree.ts';
import { readPassphrase, type SecretOptions } from './secrets.ts';
import { humanSize } from './format.ts';

export interface Output {
  json: boolean;
  /** One line (or block) of text for people. */
  text(line: string): void;
  /** The whole answer for scripts. */
  data(value: unknown): void;
}

export interface Context extends SecretOptions {
  out: Output;
}

export async function signedIn(): Promise<StoredSession> {
  const session = await loadSession();
  if (!session) throw new CliError('Not signed in: run `sealbox login <server> <username>`.', EXIT.auth);
  return session;
}

/** The signed-in account with its keys unlocked for this command, and its own tree. */
export async function openAccount(ctx: Context, session?: StoredSession) {
  const signed = session ?? (await signedIn());
  const keys = await unlock(signed, ctx);
  return { session: signed, keys, tree: new RemoteTree(connect(signed.server, signed.token), { id: null, key: keys.rootKey }) };
}

export async function openTree(ctx: Context, session?: StoredSession): Promise<RemoteTree> {
  return (await openAccount(ctx, session)).tree;
}

export async function loginCommand(ctx: Context, server: string, username: string): Promise<void> {
  const previous = await loadSession();
  const session = await login({ server, username, passwordStdin: ctx.passwordStdin });
  // A session this config held before ends with the new one (as a browser's does).
  if (previous && previous.token !== session.token) await logout(previous).catch(() => {});
  // A keyring belongs to the session it was saved in: a new sign-in starts without one.
  await forgetKeyring();
  await saveSession(session);
  if (ctx.out.json) ctx.out.data({ server: session.server, username: session.username, userId: session.userId });
  else ctx.out.text(`Signed in to ${session.server} as ${session.username}.`);
}

export async function logoutCommand(ctx: Context): Promise<void> {
  const session = await loadSession();
  if (session) await logout(session).catch(() => {});
  await forgetKeyring();
  await forgetSession();
  if (ctx.out.json) ctx.out.data({ signedOut: session !== undefined });
  else ctx.out.text(session ? `Signed out of ${session.server}.` : 'Not signed in.');
}

/** `keyring save`: the keys sealed under a passphrase for later commands; `keyring forget`. */
export async function keyringCommand(ctx: Context, action: string | undefined): Promise<void> {
  const session = await signedIn();
  if (action === 'save') {
    // The account password (not an older keyring) opens what is saved.
    const { password, sealed, wrappingKey } = await sealedKeys(session, ctx);
    await saveKeyring(session, password, sealed, await readPassphrase({}, true), wrappingKey);
    if (ctx.out.json) ctx.out.data({ keyring: 'saved' });
    else ctx.out.text('Keyring saved: commands now ask for its passphrase instead of your password.');
  } else if (action === 'forget') {
    const forgotten = await forgetKeyring();
    if (ctx.out.json) ctx.out.data({ keyring: forgotten ? 'forgotten' : 'none' });
    else ctx.out.text(forgotten ? 'Keyring forgotten: commands ask for your password again.' : 'There was no keyring.');
  } else throw new CliError('Usage: sealbox keyring save|forget', EXIT.usage);
}

export async function whoamiCommand(ctx: Context): Promise<void> {
  const session = await signedIn();
  const { api } = connect(session.server, session.token);
  const profile = await answer(api.api.profile.get(), session.server);
  const facts = { server: session.server, username: profile.username, userId: profile.id };
  if (ctx.out.json) ctx.out.data({ ...facts, usedSpace: profile.usedSpace, totalSpace: profile.totalSpace });
  else ctx.out.text(`${profile.username} on ${session.server}`);
}

const byName = (a: RemoteItem, b: RemoteItem) =>
  Number(b.isDirectory) - Number(a.isDirectory) || (a.name ?? '').localeCompare(b.name ?? '');

/** What a row shows of an item whose name did not open. */
const shownName = (item: RemoteItem) => item.name ?? `[undecryptable ${item.id}]`;

function jsonItem(item: RemoteItem, path: string | undefined) {
  return {
    id: item.id,
    name: item.name,
    ...(path === undefined ? {} : { path }),
    type: item.isDirectory ? 'folder' : 'file',
    size: item.size,
    createdAt: new Date(item.createdAt).toISOString(),
    modifiedAt: new Date(item.modifiedAt).toISOString(),
    decrypted: item.name !== null,
  };
}

function longRow(item: RemoteItem): string {
  const when = new Date(item.modifiedAt).toISOString().slice(0, 16).replace('T', ' ');
  const size = item.isDirectory ? '-' : humanSize(item.size);
  return `${item.isDirectory ? 'd' : '-'}  ${size.padStart(9)}  ${when}  ${shownName(item)}${item.isDirectory ? '/' : ''}`;
}

/** The shares the user received, opened (for `shared:` paths). */
export async function openShares(ctx: Context) {
  const account = await openAccount(ctx);
  return { ...account, shares: await sharedWithMe(account.tree.conn, { userId: account.session.userId, keys: account.keys }) };
}

/** What `path` names and the tree to read it through: the own tree, or a share (`shared:...`). */
async function locate(ctx: Context, path: string) {
  if (!isSharedPath(path)) {
    const tree = await openTree(ctx);
    return { tree, at: await tree.resolve(path), shares: undefined };
  }
  const { tree: own, shares } = await openShares(ctx);
  const found = await resolveShared(own.conn, shares, path);
  return found.list ? { tree: own, at: undefined, shares } : { tree: found.tree ?? own, at: found.at, shares };
}

function listShares(ctx: Context, shares: readonly SharedEntry[], long: boolean): void {
  const rows = [...shares].sort((a, b) => byName(a.item, b.item));
  if (ctx.out.json) {
    ctx.out.data(
      rows.map((share) => ({
        ...jsonItem(share.item, undefined),
        owner: share.owner,
        edit: share.edit,
        verified: share.verified,
      })),
    );
    return;
  }
  for (const share of rows) {
    const about = `(${share.owner}, ${share.edit ? 'editor' : 'viewer'}${share.verified ? '' : ', unverified'})`;
    const name = long ? longRow(share.item) : `${shownName(share.item)}${share.item.isDirectory ? '/' : ''}`;
    ctx.out.text(`${name}  ${about}`);
  }
}

export async function lsCommand(ctx: Context, path: string, long: boolean): Promise<void> {
  const { tree, at, shares } = await locate(ctx, path);
  if (at === undefined) return listShares(ctx, shares ?? [], long);
  const items = isFolder(at) ? (await tree.children(at)).sort(byName) : [at];
  if (ctx.out.json) {
    ctx.out.data(items.map((item) => jsonItem(item, undefined)));
    return;
  }
  for (const item of items) ctx.out.text(long ? longRow(item) : `${shownName(item)}${item.isDirectory ? '/' : ''}`);
}

export async function treeCommand(ctx: Context, path: string): Promise<void> {
  const { tree, at } = await locate(ctx, path);
  if (at === undefined) throw new CliError('tree needs a folder: name one of the shares (ls shared: lists them).', EXIT.usage);
  if (!isFolder(at)) throw new CliError(`${showPath(pathSegments(path))} is a file, not a folder.`, EXIT.usage);
  const rows: Array<{ item: RemoteItem; path: string; prefix: string }> = [];
  const walk = async (folder: Folder, where: string, prefix: string) => {
    const items = (await tree.children(folder)).sort(byName);
    for (const [i, item] of items.entries()) {
      const last = i === items.length - 1;
      const path = `${where}/${shownName(item)}`;
      rows.push({ item, path, prefix: `${prefix}${last ? '└── ' : '├── '}` });
      if (isFolder(item)) await walk(item, path, `${prefix}${last ? '    ' : '│   '}`);
    }
  };
  const top = isSharedPath(path)
    ? `${SHARED_PREFIX}${showPath(pathSegments(path.slice(SHARED_PREFIX.length))).slice(1)}`
    : showPath(pathSegments(path));
  await walk(at, top === '/' ? '' : top, '');
  if (ctx.out.json) {
    ctx.out.data(rows.map(({ item, path }) => jsonItem(item, path)));
    return;
  }
  ctx.out.text(top);
  for (const { item, prefix } of rows) ctx.out.text(`${prefix}${shownName(item)}${item.isDirectory ? '/' : ''}`);
  const folders = rows.filter((row) => row.item.isDirectory).length;
  ctx.out.text(
    `\n${folders} ${folders === 1 ? 'folder' : 'folders'}, ${rows.length - folders} ${rows.length - folders === 1 ? 'file' : 'files'}`,
  );
}

export async function mkdirCommand(ctx: Context, paths: string[], parents: boolean): Promise<void> {
  const tree = await openTree(ctx);
  const made: string[] = [];
  for (const path of paths) {
    const segments = pathSegments(path);
    const name = segments.at(-1);
    if (name === undefined) throw new CliError('mkdir needs a folder name.', EXIT.usage);
    if (parents) {
      made.push(...(await tree.makeFolders(path)).made);
      continue;
    }
    const parent = await tree.resolve(showPath(segments.slice(0, -1)));
    if (!isFolder(parent)) throw new CliError(`${showPath(segments.slice(0, -1))} is a file, not a folder.`, EXIT.notFound);
    const there = await tree.child(parent, name, segments.slice(0, -1));
    if (there) throw new CliError(nameTakenText(name, there.isDirectory), EXIT.conflict);
    await tree.makeFolder(parent, name);
    made.push(showPath(segments));
  }
  if (ctx.out.json) ctx.out.data({ made });
  else for (const path of made) ctx.out.text(`Made ${path}`);
}
