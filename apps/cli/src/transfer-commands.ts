/**
 * `put` and `get` (docs/cli.md): whole local trees up and remote trees down, a file at a time,
 * each through transfers/upload.ts or transfers/download.ts. Symbolic links and special files are
 * skipped with a warning (the drive holds files and folders only).
 */
import { lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { nameProblem } from '@sealbox/rules';
import { CliError, EXIT } from './cli-error.ts';
import type { Connection } from './client.ts';
import { type Context, openShares, openTree, signedIn } from './commands.ts';
import { isSharedPath, resolveShared } from './shared.ts';
import { isLinkUrl, openLink } from './link.ts';
import { type Folder, type RemoteItem, type RemoteTree, isFolder, onlyNamed, pathSegments, showPath } from './remote-tree.ts';
import { downloadFile } from './transfers/download.ts';
import { progress } from './transfers/progress.ts';
import { uploadFile, uploadedItem } from './transfers/upload.ts';

interface Done {
  local: string;
  path: string;
  id: string;
  size: number;
}

const warn = (text: string) => process.stderr.write(`sealbox: ${text}\n`);

/** Where `put` sends its sources: into an existing folder, or (one source) under a new name. */
async function putDestination(tree: RemoteTree, remote: string, sources: number) {
  const segments = pathSegments(remote);
  const at = await tree.resolve(remote).catch((error: unknown) => {
    if (error instanceof CliError && error.exitCode === EXIT.notFound && sources === 1 && segments.length > 0) return undefined;
    throw error;
  });
  if (at && isFolder(at)) return { folder: at, segments, rename: undefined };
  if (sources > 1) throw new CliError(`${showPath(segments)} is not a folder: several sources need one.`, EXIT.usage);
  const parentSegments = segments.slice(0, -1);
  const parent = await tree.resolve(showPath(parentSegments));
  if (!isFolder(parent)) throw new CliError(`${showPath(parentSegments)} is a file, not a folder.`, EXIT.notFound);
  return { folder: parent, segments: parentSegments, rename: segments.at(-1) };
}

export async function putCommand(ctx: Context, sources: string[], remote: string): Promise<void> {
  const session = await signedIn();
  const tree = await openTree(ctx, session);
  const destination = await putDestination(tree, remote, sources.length);
  const done: Done[] = [];

  /**
   * `local` as `name` in `folder`, whose items are `siblings`: listed once per folder (a folder of
   * 10,000 files is not listed again for each of them), and kept current with what is put there.
   */
  const putOne = async (local: string, folder: Folder, siblings: RemoteItem[], where: string[], name: string): Promise<void> => {
    const problem = nameProblem(name);
    if (problem) throw new CliError(`${local}: ${problem}`, EXIT.usage);
    const facts = await lstat(local);
    if (facts.isSymbolicLink() || !(facts.isFile() || facts.isDirectory())) {
      warn(`skipped ${local}: not a file or folder`);
      return;
    }
    const existing = onlyNamed(siblings, name, showPath([...where, name]));
    if (facts.isDirectory()) {
      if (existing && !isFolder(existing))
        throw new CliError(`${showPath([...where, name])} is a file, not a folder.`, EXIT.conflict);
      let inside: Folder;
      let within: RemoteItem[];
      if (existing && isFolder(existing)) [inside, within] = [existing, await tree.children(existing)];
      else {
        const made = await tree.makeFolder(folder, name);
        siblings.push(made);
        [inside, within] = [made, []];
      }
      for (const entry of (await readdir(local)).sort())
        await putOne(join(local, entry), inside, within, [...where, name], entry);
      return;
    }
    const path = showPath([...where, name]);
    const uploaded = await uploadFile(
      { conn: tree.conn, userId: session.userId, parent: folder, name, existing },
      resolve(local),
      (total) => progress(path, total, 0, !ctx.out.json),
    );
    const item = uploadedItem(folder, name, uploaded, existing);
    if (existing) siblings.splice(siblings.indexOf(existing), 1, item);
    else siblings.push(item);
    done.push({ local, path, id: uploaded.id, size: facts.size });
  };

  const siblings = await tree.children(destination.folder);
  for (const source of sources) {
    await stat(source).catch(() => {
      throw new CliError(`${source}: no such local file or folder.`, EXIT.notFound);
    });
    const name = destination.rename ?? basename(resolve(source));
    await putOne(source, destination.folder, siblings, destination.segments, name);
  }
  if (ctx.out.json) ctx.out.data({ uploaded: done });
  else ctx.out.text(`Uploaded ${done.length} ${done.length === 1 ? 'file' : 'files'} to ${showPath(destination.segments)}`);
}

/** Where a remote item lands locally: inside an existing folder, or at the path given. */
async function localTarget(local: string, name: string, sources: number): Promise<string> {
  const facts = await stat(local).catch(() => undefined);
  if (facts?.isDirectory()) return join(local, name);
  if (sources > 1) throw new CliError(`${local} is not a folder: several sources need one.`, EXIT.usage);
  return local;
}

export async function getCommand(ctx: Context, sources: string[], local: string, force: boolean): Promise<void> {
  const done: Done[] = [];
  let own: RemoteTree | undefined;
  let shares: Awaited<ReturnType<typeof openShares>> | undefined;

  // `tree` lists a folder's children; a link to a file has none.
  const getOne = async (conn: Connection, tree: RemoteTree | undefined, item: RemoteItem, path: string, dest: string) => {
    if (item.name === null) {
      warn(`skipped ${path}: its name or key did not open`);
      return;
    }
    if (isFolder(item) && tree) {
      await mkdir(dest, { recursive: true });
      for (const child of await tree.children(item)) {
        if (child.name === null) warn(`skipped an item in ${path}: its name or key did not open`);
        else await getOne(conn, tree, child, `${path}/${child.name}`, join(dest, safeLocalName(child.name)));
      }
      return;
    }
    if (!force && (await stat(dest).catch(() => undefined))) {
      throw new CliError(`${dest} already exists: use --force to overwrite it.`, EXIT.conflict);
    }
    const size = await downloadFile(conn, item, dest, progress(path, item.size, 0, !ctx.out.json));
    done.push({ local: dest, path, id: item.id, size });
  };

  for (const source of sources) {
    if (isLinkUrl(source)) {
      // Anyone holding the link: no account, no session.
      const { conn, root, tree } = await openLink(source);
      const name = safeLocalName(root.name!);
      await getOne(conn, tree, root, `/${root.name}`, await localTarget(local, name, sources.length));
      continue;
    }
    if (isSharedPath(source)) {
      shares ??= await openShares(ctx);
      const found = await resolveShared(shares.tree.conn, shares.shares, source);
      if (found.list) throw new CliError('get of every share at once: name one (ls shared: lists them).', EXIT.usage);
      const item = found.at as RemoteItem;
      const target = await localTarget(local, safeLocalName(item.name ?? item.id), sources.length);
      await getOne(shares.tree.conn, found.tree, item, source, target);
      continue;
    }
    own ??= await openTree(ctx);
    const item = await own.resolve(source);
    if (item.id === null) throw new CliError('get of the whole drive: name a folder.', EXIT.usage);
    const path = showPath(pathSegments(source));
    const target = await localTarget(local, safeLocalName(item.name ?? item.id), sources.length);
    await getOne(own.conn, own, item as RemoteItem, path, target);
  }
  if (ctx.out.json) ctx.out.data({ downloaded: done });
  else ctx.out.text(`Downloaded ${done.length} ${done.length === 1 ? 'file' : 'files'} to ${local}`);
}

/**
 * A remote name as a local file name: names are checked on upload, but the server could hand over
 * anything, so '/' or '\\', control characters and '.'/'..' never reach the path (docs/cli.md).
 */
export function safeLocalName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const cleaned = name.replace(/[/\\\u0000-\u001f\u007f]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? `_${cleaned}` : cleaned;
}
