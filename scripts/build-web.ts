import { resolve } from 'node:path';

/**
 * Builds the web app into apps/web/dist (the server serves it). Shared by start and test.
 * `signal` stops the build (npm start forwards SIGTERM and SIGINT). SEALBOX_WEB_BUILD_DIR, for
 * tests only, builds elsewhere (never WEB_DIST: the build empties its directory first).
 */
export async function buildWeb(signal?: AbortSignal): Promise<void> {
  const bun = process.execPath;
  const started = performance.now();
  const elsewhere = process.env.SEALBOX_WEB_BUILD_DIR;
  const outDir = elsewhere ? ['--', '--outDir', resolve(elsewhere), '--emptyOutDir'] : [];
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
