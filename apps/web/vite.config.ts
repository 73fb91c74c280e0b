import { defineConfig, build, type Plugin, type InlineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const apiProxy = {
  '/api': { target: 'http://localhost:3000', ws: true },
};

const SW_ENTRY = fileURLToPath(new URL('./src/workers/download.sw.ts', import.meta.url));

/** One self-contained classic script (no imports), so it registers without module-worker support. */
function serviceWorkerBuild(write: boolean, outDir: string): InlineConfig {
  return {
    configFile: false,
    logLevel: 'warn',
    build: {
      write,
      outDir,
      emptyOutDir: false,
      target: 'es2023',
      minify: true,
      sourcemap: false,
      copyPublicDir: false,
      rollupOptions: {
        input: SW_ENTRY,
        output: { format: 'iife', entryFileNames: 'sw.js' },
      },
    },
  };
}

/**
 * The download service worker (src/workers/download.sw.ts) must be served from the site root
 * (scope '/') under a fixed name, not a hashed /assets/ file: it is built on its own, after the
 * app, into dist/sw.js. The server serves it as text/javascript with Cache-Control: no-cache.
 * In `vite dev` it is built in memory on request.
 */
function downloadServiceWorker(): Plugin {
  let outDir = '';
  return {
    name: 'sealbox-download-sw',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await build(serviceWorkerBuild(true, outDir));
    },
  };
}

function downloadServiceWorkerDev(): Plugin {
  return {
    name: 'sealbox-download-sw-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_req, res, next) => {
        build(serviceWorkerBuild(false, resolve(server.config.root, 'dist')))
          .then((result) => {
            const outputs = Array.isArray(result) ? result : [result];
            for (const out of outputs) {
              if (!('output' in out)) continue;
              const chunk = out.output.find((o) => o.type === 'chunk');
              if (chunk && chunk.type === 'chunk') {
                res.setHeader('content-type', 'text/javascript; charset=utf-8');
                res.setHeader('cache-control', 'no-cache');
                res.end(chunk.code);
                return;
              }
            }
            next(new Error('service worker build produced no chunk'));
          })
          .catch(next);
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), downloadServiceWorker(), downloadServiceWorkerDev()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2023',
    // The server's CSP allows data: only for images; never inlining keeps fonts,
    // workers and everything else loadable as same-origin files.
    assetsInlineLimit: 0,
  },
  worker: {
    // Module workers so the crypto worker can use ESM imports; emitted as files (CSP worker-src 'self').
    format: 'es',
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
});
