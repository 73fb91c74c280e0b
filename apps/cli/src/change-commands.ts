/**
 * `mv` and `rm` (docs/cli.md): moves re-wrap each item's K under its new folder's key, as the web
 * app's do, and go with deletes through the bulk calls (docs/protocol.md "Batch changes"), 5,000
 * items a call, each item answered on its own.
 */
import { nameKey, nameProblem, nameTakenText } from '@sealbox/rules';
import { CliError, EXIT } from './cli-error.ts';
import { answer } from './client.ts';
import { type Context, openTree } from './commands.ts';
import {
  type BatchResult,
  type Folder,
  type RemoteItem,
  type RemoteTree,
  isFolder,
  pathSegments,
  showPath,
} from './remote-tree.ts';

/** Throws one error naming every refused item (by its path), after the others were changed. */
function refusedOnes(results: readonly BatchResult[], pathOf: Map<string, string>, verb: string): void {
  const refused = results.filter((result) => !result.ok);
  if (refused.length === 0) return;
  const lines = refused.map((result) => `${pathOf.get(result.id) ?? result.id}: ${result.ok ? '' : result.message}`);
  throw new CliError(`could not ${verb} ${refused.length} of ${results.length}:\n  ${lines.join('\n  ')}`, EXIT.failed);
}

export async function rmCommand(ctx: Context, paths: string[], recursive: boolean): Promise<void> {
  const tree = await openTree(ctx);
  const pathOf = new Map<string, string>();
  for (const path of paths) {
    const item = await tree.item(path);
    if (item.isDirectory && !recursive) throw new CliError(`${showPath(pathSegments(path))} is a folder: use rm -r.`, EXIT.usage);
    pathOf.set(item.id, showPath(pathSegments(path)));
  }
  const { api, server } = tree.conn;
  const results = await tree.remove([...pathOf.keys()]);
  const trash = await answer(api.api.trash.get({ query: { limit: 1, offset: 0 } }), server);
  const done = results.filter((result) => result.ok).map((result) => pathOf.get(result.id)!);
  if (ctx.out.json) ctx.out.data({ deleted: done, retentionDays: trash.retentionDays });
  else {
    const where = trash.retentionDays > 0 ? `moved to the trash for ${trash.retentionDays} days` : 'deleted for good';
    for (const path of done) ctx.out.text(`${path}: ${where}`);
  }
  refusedOnes(results, pathOf, 'delete');
}

/** Moves `items` into `target`, each K wrapped for it; names already there are refused first. */
async function moveInto(tree: RemoteTree, items: RemoteItem[], target: Folder, where: string[], pathOf: Map<string, string>) {
  const there = await tree.children(target);
  for (const item of items) {
    const clash = there.find(
      (other) => other.name !== null && other.id !== item.id && nameKey(other.name) === nameKey(item.name!),
    );
    if (clash) throw new CliError(`${showPath(where)}: ${nameTakenText(item.name!, clash.isDirectory)}`, EXIT.conflict);
  }
  refusedOnes(await tree.moveInto(items, target), pathOf, 'move');
}

export async function mvCommand(ctx: Context, sources: string[], destination: string): Promise<void> {
  const tree = await openTree(ctx);
  const items: RemoteItem[] = [];
  const pathOf = new Map<string, string>();
  for (const source of sources) {
    const item = await tree.item(source);
    if (!item.key || item.name === null) throw new CliError(`${source}: its key did not open.`, EXIT.integrity);
    items.push(item);
    pathOf.set(item.id, showPath(pathSegments(source)));
  }
  const segments = pathSegments(destination);
  const at = await tree.resolve(destination).catch((error: unknown) => {
    if (error instanceof CliError && error.exitCode === EXIT.notFound && sources.length === 1 && segments.length > 0)
      return undefined;
    throw error;
  });
  // `mv Docs docs` finds Docs itself: a rename, not a move into it.
  const itself = at !== undefined && sources.length === 1 && at.id === items[0]!.id;
  if (at && isFolder(at) && !itself) {
    await moveInto(tree, items, at, segments, pathOf);
    report(
      ctx,
      items.map((item) => [pathOf.get(item.id)!, showPath([...segments, item.name!])]),
    );
    return;
  }
  if (sources.length > 1) throw new CliError(`${showPath(segments)} is not a folder: several sources need one.`, EXIT.usage);
  if (at && !itself) throw new CliError(`${showPath(segments)} already exists.`, EXIT.conflict);
  // One item to a new path: into its folder (when another), then under its new name.
  const item = items[0]!;
  const name = segments.at(-1)!;
  const problem = nameProblem(name);
  if (problem) throw new CliError(`${name}: ${problem}`, EXIT.usage);
  const parent = await tree.resolve(showPath(segments.slice(0, -1)));
  if (!isFolder(parent)) throw new CliError(`${showPath(segments.slice(0, -1))} is a file, not a folder.`, EXIT.notFound);
  if (parent.id !== item.parentId) await moveInto(tree, [{ ...item, name }], parent, segments.slice(0, -1), pathOf);
  if (name !== item.name) await tree.rename(item, name);
  report(ctx, [[pathOf.get(item.id)!, showPath(segments)]]);
}

function report(ctx: Context, moves: Array<[string, string]>): void {
  if (ctx.out.json) ctx.out.data({ moved: moves.map(([from, to]) => ({ from, to })) });
  else for (const [from, to] of moves) ctx.out.text(`${from} -> ${to}`);
}
