/**
 * Runs the `sealbox` command as a user would (a child process, its own config folder) against a
 * real server, and reads back what it printed and how it exited.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../src/main.ts', import.meta.url).pathname;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Cli {
  /** The config folder this CLI keeps its session in. */
  dir: string;
  run(args: string[], options?: { env?: Record<string, string>; stdin?: string }): Promise<CliRun>;
  /** `run` with --json, its stdout parsed. */
  json(args: string[], options?: { env?: Record<string, string> }): Promise<{ code: number; value: any }>;
}

export async function makeCli(password: string): Promise<Cli> {
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-cli-'));
  const run: Cli['run'] = async (args, options = {}) => {
    const child = Bun.spawn([process.execPath, MAIN, ...args], {
      env: { ...process.env, SEALBOX_CONFIG_DIR: join(dir, 'config'), SEALBOX_PASSWORD: password, ...options.env },
      stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr };
  };
  return {
    dir: join(dir, 'config'),
    run,
    async json(args, options) {
      const result = await run([...args, '--json'], options);
      return { code: result.code, value: JSON.parse(result.stdout) };
    },
  };
}
