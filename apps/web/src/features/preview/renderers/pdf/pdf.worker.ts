/**
 * The pdf.js worker, bundled by Vite into a same-origin module worker file (CSP worker-src 'self':
 * no CDN, no blob: worker). Importing it is enough: it answers the port it runs on.
 */
import 'pdfjs-dist/build/pdf.worker.mjs';
