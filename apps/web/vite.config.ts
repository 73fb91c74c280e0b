import { defineConfig, build, type Plugin, type InlineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { cp, readFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';

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

/**
 * pdf.js's data files (CMaps for CJK text, the standard fonts, the wasm image and colour decoders,
 * the ICC profile) served from our own origin under /assets/pdfjs-<version>/, which
 * renderers/pdf/pdfjs.ts passes to pdf.js: nothing is fetched from elsewhere (CSP connect-src
 * 'self'). The version in the path keeps them immutable. quickjs-eval (pdf scripting) and the
 * nowasm fallback scripts are left out on purpose.
 */
const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_DATA = ['cmaps', 'standard_fonts', 'iccs', 'wasm/openjpeg.wasm', 'wasm/jbig2.wasm', 'wasm/qcms_bg.wasm'];

function pdfjsData(): Plugin {
  let outDir = '';
  const prefix = async () => {
    const { version } = JSON.parse(await readFile(join(PDFJS_DIR, 'package.json'), 'utf8'));
    return `assets/pdfjs-${version}`;
  };
  return {
    name: 'sealbox-pdfjs-data',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const base = join(outDir, await prefix());
      for (const part of PDFJS_DATA) await cp(join(PDFJS_DIR, part), join(base, part), { recursive: true });
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const path = decodeURIComponent(new URL(req.url ?? '/', 'http://dev').pathname).slice(1);
        const base = await prefix();
        const part = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : null;
        if (!part || part.includes('..') || !PDFJS_DATA.some((p) => part === p || part.startsWith(`${p}/`))) return next();
        readFile(join(PDFJS_DIR, part)).then(
          (data) => {
            res.setHeader('content-type', extname(part) === '.wasm' ? 'application/wasm' : 'application/octet-stream');
            res.end(data);
          },
          () => next(),
        );
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), downloadServiceWorker(), downloadServiceWorkerDev(), pdfjsData()],
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
