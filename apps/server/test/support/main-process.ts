import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { waitFor } from './services.ts';

/** The server's entry point, as `bun src/main.ts` runs it. */
export const MAIN = join(import.meta.dir, '../../src/main.ts');
/** The repository root (where docs/operations.md's production command runs). */
export const REPO_ROOT = join(import.meta.dir, '../../../..');

/** An environment with nothing inherited that could point the server at shared services. */
export function isolatedEnv(fallbackHome: string, extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? fallbackHome, HOST: '127.0.0.1', PORT: '0', ...extra };
}

export interface MainProcess {
  child: Subprocess<'ignore', 'pipe', 'pipe'>;
  url: string;
  /** What the process wrote to stdout so far. */
  stdout(): string;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
}

export interface SpawnOptions {
  /** The command line; `bun src/main.ts` unless given (e.g. the documented production command). */
  argv?: string[];
  cwd?: string;
  timeoutMs?: number;
}

/**
 * Runs the server as a user would (`bun src/main.ts` by default) and waits for its "listening"
 * log line (it needs LOG_LEVEL=info), which names the port it picked for PORT=0. Both pipes are
 * read to the end, so the child never blocks on a full pipe.
 */
export async function spawnMain(env: Record<string, string>, options: SpawnOptions = {}): Promise<MainProcess> {
  const child = Bun.spawn(options.argv ?? [process.execPath, MAIN], {
    env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      add(decoder.decode(read.value, { stream: true }));
  };
  void pump(child.stdout, (text) => (stdout += text)).catch(() => {});
  void pump(child.stderr, (text) => (stderr += text)).catch(() => {});
  const output = () => `${stdout}${stderr}`;
  let url = '';
  try {
    await waitFor(
      () => {
        const line = stdout.split('\n').find((l) => l.includes('"listening"'));
        if (line) url = (JSON.parse(line) as { url: string }).url;
        else if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output()}`);
        return url !== '';
      },
      // Only a hang guard: a start (migrations included) on a busy machine can be slow.
      options.timeoutMs ?? 60_000,
      'the server to listen',
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`server did not report listening: ${(error as Error).message}; output: ${output()}`);
  }
  return { child, url, stdout: () => stdout, output };
}

/** A client's view of whichever server process runs now: requests go to `url()` as they are. */
export function remoteTo(url: () => string): { handle(request: Request): Promise<Response> } {
  return {
    handle(request) {
      const target = new URL(request.url);
      return fetch(`${url()}${target.pathname}${target.search}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // @ts-expect-error Bun supports streaming request bodies
        duplex: 'half',
      });
    },
  };
}
