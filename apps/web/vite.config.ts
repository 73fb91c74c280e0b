import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiProxy = {
  '/api': { target: 'http://localhost:3000', ws: true },
};

export default defineConfig({
  plugins: [react()],
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
