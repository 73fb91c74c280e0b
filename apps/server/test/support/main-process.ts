import { join } from 'node:path';
import type { Subprocess } from 'bun';

/** The server's entry point, as `bun src/main.ts` runs it. */
export const MAIN = join(import.meta.dir, '../../src/main.ts');

/** An environment with nothing inherited that could point the server at shared services. */
export function isolatedEnv(fallbackHome: string, extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? fallbackHome, HOST: '127.0.0.1', PORT: '0', ...extra };
}

export interface MainProcess {
  child: Subprocess<'ignore', 'pipe', 'pipe'>;
  url: string;
}

/**
 * Runs `bun src/main.ts` as a user would and waits for its "listening" log line (it needs
 * LOG_LEVEL=info), which names the port it picked for PORT=0.
 */
export async function spawnMain(env: Record<string, string>): Promise<MainProcess> {
  const child = Bun.spawn([process.execPath, MAIN], { env, stdout: 'pipe', stderr: 'pipe' });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let output = '';
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    output += decoder.decode(value, { stream: true });
    const line = output.split('\n').find((l) => l.includes('"listening"'));
    if (line) {
      // Keep draining stdout so the child never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done);
      })();
      return { child, url: (JSON.parse(line) as { url: string }).url };
    }
  }
  child.kill('SIGKILL');
  throw new Error(`server did not report listening; output: ${output}; stderr: ${await new Response(child.stderr).text()}`);
}
