import { getDocument, PDFWorker, version, type PDFDocumentProxy } from 'pdfjs-dist';

/**
 * pdf.js, opened the one way the app allows (docs/protocol.md "Threat table"):
 * - its worker is our own bundled file (./pdf.worker.ts), one per document, ended with it;
 * - everything it may fetch (CMaps, standard fonts, the wasm JPEG 2000 / JBIG2 / colour decoders,
 *   the ICC profile) comes from our own origin, copied there by the build (vite.config.ts
 *   pdfjsData); fonts embedded in a pdf load from bytes through FontFace;
 * - no eval: pdfjs-dist 6 has no eval or `new Function` path left at all (the `isEvalSupported`
 *   switch that CVE-2024-4367 went through was removed upstream with the code it guarded), and
 *   the CSP has no 'unsafe-eval' besides; e2e/journeys/preview/preview-security.test.ts checks both;
 * - no XFA (it would write HTML from the file into our page), and no annotation or text layer:
 *   pages are drawn to a canvas only, so no link of the file is ever clickable.
 */
function dataUrl(part: string): string {
  return new URL(`/assets/pdfjs-${version}/${part}/`, window.location.href).href;
}

export function pdfOptions() {
  return {
    enableXfa: false,
    stopAtErrors: false,
    cMapUrl: dataUrl('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: dataUrl('standard_fonts'),
    wasmUrl: dataUrl('wasm'),
    iccUrl: dataUrl('iccs'),
  } as const;
}

export interface OpenPdf {
  document: PDFDocumentProxy;
  /** Ends the document and its worker. */
  close: () => Promise<void>;
}

export async function openPdf(data: Uint8Array): Promise<OpenPdf> {
  const port = new Worker(new URL('./pdf.worker.ts', import.meta.url), { type: 'module', name: 'pdf.js' });
  const worker = new PDFWorker({ port } as unknown as ConstructorParameters<typeof PDFWorker>[0]);
  const task = getDocument({ ...pdfOptions(), data, worker });
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
