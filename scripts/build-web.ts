import { resolve } from 'node:path';

/**
 * Builds the web app where the server will serve it from: WEB_DIST when set, else apps/web/dist.
 * Shared by start and test. `signal` stops the build (npm start forwards SIGTERM and SIGINT).
 */
export async function buildWeb(signal?: AbortSignal): Promise<void> {
  const bun = process.execPath;
  const started = performance.now();
  // Resolved from where we run, as the server resolves it (the build itself runs in apps/web).
  const outDir = process.env.WEB_DIST ? ['--', '--outDir', resolve(process.env.WEB_DIST), '--emptyOutDir'] : [];
  const proc = Bun.spawn([bun, 'run', 'build', ...outDir], {
    cwd: new URL('../apps/web/', import.meta.url).pathname,
    stdout: 'pipe',
    stderr: 'pipe',
    ...(signal ? { signal } : {}),
  });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if (signal?.aborted) throw new Error('building the web app was stopped');
  if (code !== 0) {
    console.error(out, err);
    throw new Error('building the web app failed');
  }
  console.log(`web app built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
