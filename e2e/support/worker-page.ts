/**
 * Serves a bundled Web Worker beside a bare page on 127.0.0.1, for running package code
 * inside a real browser worker (crypto checks, benchmarks) without the app around it.
 * The page exposes `callWorker(index, message, transfer?)`: worker `index` is made on first use.
 */
const PAGE_SCRIPT = `
const workers = []
window.callWorker = (index, message) => new Promise((resolve, reject) => {
  const worker = workers[index] ??= new Worker('/worker.js', { type: 'module' })
  worker.onmessage = (event) => resolve(event.data)
  worker.onerror = (event) => reject(new Error(event.message || 'worker failed'))
  worker.postMessage(message)
})
window.pageReady = true
`;

export interface WorkerPage {
  url: string;
  stop(): Promise<void>;
}

export async function serveWorkerPage(workerEntry: string): Promise<WorkerPage> {
  const build = await Bun.build({ entrypoints: [workerEntry], target: 'browser', format: 'esm', minify: true });
  if (!build.success) throw new Error(`bundling ${workerEntry} failed:\n${build.logs.join('\n')}`);
  const workerJs = await build.outputs[0]!.text();
  const js = { 'content-type': 'text/javascript' };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/worker.js') return new Response(workerJs, { headers: js });
      if (path === '/page.js') return new Response(PAGE_SCRIPT, { headers: js });
      if (path === '/') {
        const html = '<!doctype html><meta charset="utf-8"><title>worker</title><script type="module" src="/page.js"></script>';
        return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      }
      return new Response('not found', { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, stop: () => server.stop(true) };
}
