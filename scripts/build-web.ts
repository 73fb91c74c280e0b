/** Builds the web app into apps/web/dist (the server serves it). Shared by start and test. */
export async function buildWeb(): Promise<void> {
  const bun = process.execPath;
  const started = performance.now();
  const proc = Bun.spawn([bun, 'run', 'build'], {
    cwd: new URL('../apps/web/', import.meta.url).pathname,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if (code !== 0) {
    console.error(out, err);
    throw new Error('building the web app failed');
  }
  console.log(`web app built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
