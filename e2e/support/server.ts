/**
 * Runs the real Sealbox server (`bun apps/server/src/main.ts`) as a child
 * process on a free port with an empty data directory, as a user would run it.
 * It serves the built web app: loading this module builds apps/web first when the build is
 * missing or older than its sources (at import, so no test or hook timeout cuts the build short).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { ensureWebBuilt } from '../../scripts/build-web.ts';
import { freePort } from './ports.ts';

await ensureWebBuilt();

const REPO_ROOT = join(import.meta.dir, '..', '..');
const SERVER_ENTRY = join(REPO_ROOT, 'apps', 'server', 'src', 'main.ts');

export interface StartServerOptions {
  /** Extra environment for the server (e.g. DATABASE_URL); PORT and DATA_DIR are set here. */
  env?: Record<string, string>;
  /** How long to wait for GET /api/health. */
  readyTimeoutMs?: number;
  /** Another entry file (e.g. SEALBOX_E2E_SERVER_ENTRY) when running the journeys against a different server. */
  entry?: string;
}

export interface RunningServer {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  /** The server process (benchmarks read its memory). */
  pid: number;
  /** Everything the server printed so far, for failure messages. */
  output(): string;
  /** SIGTERM, wait for exit (SIGKILL after 10 s), then delete the data directory. */
  stop(): Promise<void>;
}

async function collect(stream: ReadableStream<Uint8Array>, into: string[]) {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    into.push(decoder.decode(value, { stream: true }));
  }
}

async function waitForHealth(url: string, child: Subprocess, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${output()}`);
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { env = {}, readyTimeoutMs = 30_000 } = options;
  const entry = options.entry ?? process.env.SEALBOX_E2E_SERVER_ENTRY ?? SERVER_ENTRY;
  const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-data-'));
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const chunks: string[] = [];
  const output = () => chunks.join('');

  const child = Bun.spawn([process.execPath, entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const drained = Promise.all([collect(child.stdout, chunks), collect(child.stderr, chunks)]).catch(() => {});

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await child.exited;
      clearTimeout(killer);
    }
    await drained;
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, readyTimeoutMs, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, dataDir, pid: child.pid, output, stop };
}
