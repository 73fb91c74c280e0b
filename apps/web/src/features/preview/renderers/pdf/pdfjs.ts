import { getDocument, PDFWorker, type PDFDocumentProxy } from 'pdfjs-dist';

/**
 * pdf.js, opened the one way the app allows (DESIGN 7):
 * - its worker is our own bundled file (./pdf.worker.ts), one per document, ended with it;
 * - nothing is fetched: no standard-font, CMap, ICC or wasm URL is given, so a pdf can make
 *   pdf.js load nothing from anywhere (fonts embedded in the file go through FontFace from bytes);
 * - no eval: pdfjs-dist 6 has no eval or `new Function` path left at all (the `isEvalSupported`
 *   switch that CVE-2024-4367 went through was removed upstream with the code it guarded), and
 *   the CSP has no 'unsafe-eval' besides; e2e/preview-security.test.ts checks both;
 * - no XFA (it would write HTML from the file into our page), and no annotation or text layer:
 *   pages are drawn to a canvas only, so no link of the file is ever clickable.
 */
export const PDF_OPTIONS = {
  enableXfa: false,
  useWorkerFetch: false,
  stopAtErrors: false,
} as const;

export interface OpenPdf {
  document: PDFDocumentProxy;
  /** Ends the document and its worker. */
  close: () => Promise<void>;
}

export async function openPdf(data: Uint8Array): Promise<OpenPdf> {
  const port = new Worker(new URL('./pdf.worker.ts', import.meta.url), { type: 'module', name: 'pdf.js' });
  const worker = new PDFWorker({ port } as unknown as ConstructorParameters<typeof PDFWorker>[0]);
  const task = getDocument({ ...PDF_OPTIONS, data, worker });
  const close = async () => {
    await task.destroy().catch(() => undefined);
    worker.destroy();
    port.terminate();
  };
  try {
    return { document: await task.promise, close };
  } catch (error) {
    await close();
    throw error;
  }
}
