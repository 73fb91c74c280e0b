#!/usr/bin/env node
// Runs a Bun script on a machine that may only have Node.js and npm: uses the Bun on PATH when
// it is recent enough, otherwise installs the pinned one from the npm registry into ./.tools.
// Then installs the workspace's dependencies from bun.lock and hands over to Bun.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUN_VERSION = '1.4.5';
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const tools = join(root, '.tools');
const localBun = join(tools, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun');

function versionOf(command) {
  const out = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : null;
}

function recentEnough(version) {
  const [major, minor] = (version ?? '0.0').split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 4);
}

function findBun() {
  if (process.env.SEALBOX_BUN) return process.env.SEALBOX_BUN;
  if (recentEnough(versionOf('bun'))) return 'bun';
  if (recentEnough(versionOf(localBun))) return localBun;
  console.log(`Installing Bun ${BUN_VERSION} from the npm registry into .tools/ ...`);
  mkdirSync(tools, { recursive: true });
  // npm 11 holds back install scripts unless allowed; bun's script swaps in the native binary.
  writeFileSync(join(tools, 'package.json'), JSON.stringify({ private: true, allowScripts: { bun: true } }));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, ['install', '--prefix', tools, '--no-audit', '--no-fund', `bun@${BUN_VERSION}`], {
    stdio: 'inherit',
  });
  if (install.status !== 0 || !existsSync(localBun)) {
    console.error('Could not install Bun from npm. Install it by hand: npm i -g --allow-scripts=bun bun');
    process.exit(1);
  }
  return localBun;
}

const bun = findBun();
const deps = spawnSync(bun, ['install', '--frozen-lockfile'], { cwd: root, stdio: 'inherit' });
if (deps.status !== 0) process.exit(deps.status ?? 1);

const child = spawn(bun, process.argv.slice(2), { cwd: root, stdio: 'inherit', env: { ...process.env, SEALBOX_BUN: bun } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
