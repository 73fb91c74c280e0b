/**
 * A past release's server, taken from git history, to run beside the current one on one
 * database (the rolling-upgrade test). Extracted once per commit into the temp directory and
 * kept there, so later runs start at once.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from './main-process.ts';

export interface ReleaseBuild {
  commit: string;
  /** The extracted tree. */
  root: string;
  /** The command line that starts its server, to run with `cwd: root`. */
  argv: string[];
}

export async function releaseBuild(commit: string): Promise<ReleaseBuild> {
  const root = join(tmpdir(), 'sealbox-releases', commit);
  const build = { commit, root, argv: [process.execPath, join(root, 'apps/server/src/main.ts')] };
  if (await stillLinked(root)) return build;
  await rm(root, { recursive: true, force: true });

  const present = Bun.spawnSync(['git', '-C', REPO_ROOT, 'cat-file', '-e', `${commit}^{commit}`]);
  if (present.exitCode !== 0) {
    throw new Error(
      `Release ${commit} is not in this clone's git history, so the rolling-upgrade test cannot start it. ` +
        'A shallow clone lacks it: run `git fetch --unshallow` (CI: check out with fetch-depth: 0).',
    );
  }
  const partial = `${root}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const extracted = Bun.spawnSync(['sh', '-c', `git -C "${REPO_ROOT}" archive --format=tar ${commit} | tar -x -C "${partial}"`]);
  if (extracted.exitCode !== 0) throw new Error(`git archive ${commit} failed: ${extracted.stderr.toString()}`);
  const targets: string[] = [];
  if (!(await linkDependencies(partial, 'apps/server', targets))) install(partial);
  await writeFile(join(partial, '.ready'), JSON.stringify(targets));
  // Another run may have finished first: its tree is as good as this one.
  await rename(partial, root).catch(() => rm(partial, { recursive: true, force: true }));
  return build;
}

/**
 * A kept tree is used while every package it links to is still installed here (a reinstall of
 * this checkout can replace them); `.ready` names them and is written last.
 */
async function stillLinked(root: string): Promise<boolean> {
  const ready = join(root, '.ready');
  if (!existsSync(ready)) return false;
  let targets: unknown;
  try {
    targets = JSON.parse(await readFile(ready, 'utf8'));
  } catch {
    return false;
  }
  return Array.isArray(targets) && targets.every((target) => typeof target === 'string' && existsSync(target));
}

/**
 * Links the server's dependencies (and its workspaces' dependencies) to this checkout's
 * installed copies of the very versions the release pins, which is what an install from its
 * lockfile would fetch. False when one is not installed here, so the caller installs instead.
 */
async function linkDependencies(tree: string, workspace: string, targets: string[]): Promise<boolean> {
  const manifest = JSON.parse(await readFile(join(tree, workspace, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
    const link = join(tree, workspace, 'node_modules', name);
    let target: string | undefined;
    if (version.startsWith('workspace:')) {
      const dependency = await workspaceDir(tree, name);
      if (!(await linkDependencies(tree, dependency, targets))) return false;
      target = relative(dirname(link), join(tree, dependency));
    } else {
      target = installedCopy(name, version);
      if (target !== undefined) targets.push(target);
    }
    if (target === undefined) return false;
    await mkdir(dirname(link), { recursive: true });
    await symlink(target, link);
  }
  return true;
}

/** Bun's isolated store keeps each package at node_modules/.bun/<name with + for />@<version>[+hash]. */
function installedCopy(name: string, version: string): string | undefined {
  const store = join(REPO_ROOT, 'node_modules/.bun');
  if (!existsSync(store)) return undefined;
  const prefix = `${name.replace('/', '+')}@${version}`;
  const entry = readdirSync(store).find((e) => e === prefix || e.startsWith(`${prefix}+`));
  return entry && join(store, entry, 'node_modules', name);
}

async function workspaceDir(tree: string, name: string): Promise<string> {
  for (const group of ['apps', 'packages']) {
    for (const dir of readdirSync(join(tree, group))) {
      const path = join(tree, group, dir, 'package.json');
      if (existsSync(path) && (JSON.parse(await readFile(path, 'utf8')) as { name?: string }).name === name)
        return `${group}/${dir}`;
    }
  }
  throw new Error(`workspace ${name} not found in the release`);
}

function install(tree: string): void {
  const result = Bun.spawnSync([process.execPath, 'install', '--frozen-lockfile'], { cwd: tree, stdout: 'pipe', stderr: 'pipe' });
  if (result.exitCode !== 0) throw new Error(`bun install in the release failed: ${result.stderr.toString()}`);
}
