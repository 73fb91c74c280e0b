import { useCallback, useEffect, useRef, useState } from 'react';
import { RenderingCancelledException, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import { Spinner } from '@sealbox/ui';
import type { RendererProps } from '../types.ts';
import { openPdf } from './pdf/pdfjs.ts';
import { clampZoom, parsePage, ZOOM_WHEEL_STEP } from './pdf/zoom.ts';
import { PreviewButton, ZoomButtons } from './zoom-controls.tsx';
import './pdf/pdf-view.css';

/** pdf.js measures in points; a page at zoom 1 is drawn at its printed size in CSS pixels. */
const CSS_PIXELS_PER_POINT = 96 / 72;
/** The most device pixels one page's canvas may hold (zoom 5 on a dense screen would be ~200 M). */
const MAX_CANVAS_PIXELS = 4096 * 4096;
/**
 * User Timing marks of one open (bench/preview/pdf.ts reads them): the decrypted bytes here, the
 * document open in pdf.js, the first page drawn.
 */
const PDF_MARKS = { bytes: 'preview:pdf-bytes', open: 'preview:pdf-open', firstPage: 'preview:pdf-first-page' } as const;

/**
 * docs/product.md "Screens" pdf: one page at a time on a canvas (pdf.js, opened by ./pdf/pdfjs.ts),
 * a numbers-only page box (1 to the page count), previous and next page, zoom 0.2 to 5 (buttons
 * 0.2, Ctrl or pinch + wheel 0.1). When pdf.js cannot read or draw the file, the browser's own pdf
 * viewer shows it in a frame (docs/product.md "States"), from a blob typed application/pdf so it is
 * never read as a page.
 */
export function PdfView({ file, blob }: RendererProps) {
  const [document, setDocument] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [pageText, setPageText] = useState('1');
  const [zoom, setZoom] = useState<number | null>(null);
  const [drawn, setDrawn] = useState<number | null>(null);
  const stage = useRef<HTMLElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawnOnce = useRef(false);

  // Open the document once per file; the worker ends with it.
  useEffect(() => {
    let live = true;
    let close: (() => Promise<void>) | null = null;
    blob()
      .then(async (whole) => {
        const data = new Uint8Array(await whole.arrayBuffer());
        if (!live) return;
        performance.mark(PDF_MARKS.bytes);
        try {
          const opened = await openPdf(data);
          close = opened.close;
          if (!live) return void opened.close();
          performance.mark(PDF_MARKS.open);
          setDocument(opened.document);
        } catch {
          if (live) setFailed(true);
        }
      })
      .catch(() => undefined); // blob() failing is the shell's error to show
    return () => {
      live = false;
      void close?.();
    };
  }, [blob]);

  // First zoom: the page's printed size, or narrower to fit the screen's width.
  useEffect(() => {
    if (!document || zoom !== null) return;
    let live = true;
    document
      .getPage(1)
      .then((first) => {
        if (!live) return;
        const width = first.getViewport({ scale: CSS_PIXELS_PER_POINT }).width;
        const room = (stage.current?.clientWidth ?? width) - 32;
        setZoom(width > room ? clampZoom(Math.floor((room / width) * 10) / 10) : 1);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [document, zoom]);

  // Draw the current page at the current zoom; a newer page or zoom cancels the older drawing.
  useEffect(() => {
    const target = canvas.current;
    if (!document || zoom === null || !target) return;
    let live = true;
    let task: RenderTask | null = null;
    document
      .getPage(page)
      .then((current) => {
        if (!live) return;
        const viewport = current.getViewport({ scale: zoom * CSS_PIXELS_PER_POINT });
        const density = Math.min(
          window.devicePixelRatio || 1,
          Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, viewport.width * viewport.height)),
        );
        target.width = Math.max(1, Math.floor(viewport.width * density));
        target.height = Math.max(1, Math.floor(viewport.height * density));
        target.style.width = `${Math.floor(viewport.width)}px`;
        target.style.height = `${Math.floor(viewport.height)}px`;
        task = current.render({
          canvas: target,
          viewport,
          transform: density === 1 ? undefined : [density, 0, 0, density, 0, 0],
        });
        return task.promise.then(() => {
          if (!live) return;
          if (page === 1 && drawnOnce.current === false) {
            drawnOnce.current = true;
            performance.mark(PDF_MARKS.firstPage);
          }
          setDrawn(page);
        });
      })
      .catch((error: unknown) => {
        if (live && !(error instanceof RenderingCancelledException)) setFailed(true);
      });
    return () => {
      live = false;
      task?.cancel();
    };
  }, [document, page, zoom]);

  const count = document?.numPages ?? 0;
  const goTo = useCallback(
    (next: number) => {
      const target = Math.min(Math.max(1, next), Math.max(1, count));
      setPage(target);
      setPageText(String(target));
      stage.current?.scrollTo({ top: 0 });
    },
    [count],
  );
  const zoomBy = useCallback((step: number) => setZoom((z) => clampZoom((z ?? 1) + step)), []);

  // Ctrl + wheel (and a trackpad pinch, which the browser reports as one) zooms by 0.1; a plain
  // wheel scrolls the page, as in every pdf reader. React's wheel listener cannot cancel.
  useEffect(() => {
    const element = stage.current;
    if (!element || !document) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      zoomBy(event.deltaY < 0 ? ZOOM_WHEEL_STEP : -ZOOM_WHEEL_STEP);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [document, zoomBy]);

  // PageUp and PageDown turn pages (arrows stay the shell's, to move between files).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement) return;
      if (event.key === 'PageDown' && page < count) goTo(page + 1);
      else if (event.key === 'PageUp' && page > 1) goTo(page - 1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [page, count, goTo]);

  if (failed) return <PdfFallback blob={blob} name={file.name} />;

  const commitPage = () => {
    const typed = parsePage(pageText, count);
    if (typed === null) setPageText(String(page));
    else goTo(typed);
  };

  return (
    <div className="pdf-view" data-page={drawn ?? undefined} data-zoom={zoom ?? undefined}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the page scrolls when zoomed; a scrollable region must take focus so the keyboard can scroll it (WCAG 2.1.1, axe scrollable-region-focusable) */}
      <section ref={stage} className="pdf-view__stage" tabIndex={0} aria-label="PDF page">
        {!document && (
          <div className="preview__loading">
            <Spinner label="Loading preview" />
          </div>
        )}
        <canvas ref={canvas} className="pdf-view__page" hidden={!document} aria-label={`Page ${page} of ${count}`} />
      </section>
      {document && (
        <div className="pdf-view__controls">
          <fieldset className="pdf-view__group" aria-label="Pages">
            <PreviewButton label="Previous page" disabled={page <= 1} onClick={() => goTo(page - 1)}>
              ‹
            </PreviewButton>
            <input
              className="pdf-view__page-input"
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              aria-label="Page number"
              value={pageText}
              size={Math.max(2, String(count).length)}
              onChange={(event) => setPageText(event.target.value.replace(/\D+/g, ''))}
              onBlur={commitPage}
              onKeyDown={(event) => {
                event.stopPropagation(); // arrows move the caret here, not to the next file
                if (event.key === 'Enter') commitPage();
              }}
            />
            <span className="pdf-view__count">of {count}</span>
            <PreviewButton label="Next page" disabled={page >= count} onClick={() => goTo(page + 1)}>
              ›
            </PreviewButton>
          </fieldset>
          <fieldset className="pdf-view__group" aria-label="Zoom">
            <ZoomButtons zoom={zoom} outputClassName="pdf-view__zoom" onZoomBy={zoomBy} />
          </fieldset>
        </div>
      )}
    </div>
  );
}

/**
 * docs/product.md "States" fallback: the browser's pdf viewer in a frame (CSP frame-src blob:,
 * unchanged). The blob is re-typed application/pdf, so whatever the file holds, the frame reads it
 * as a pdf and never as HTML; the URL is this view's own and is revoked when it goes.
 */
function PdfFallback({ blob, name }: Pick<RendererProps, 'blob'> & { name: string | null }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    blob()
      .then((whole) => {
        if (!live) return;
        made = URL.createObjectURL(new Blob([whole], { type: 'application/pdf' }));
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [blob]);
  if (!url) {
    return (
      <div className="preview__loading">
        <Spinner label="Loading preview" />
      </div>
    );
  }
  return <iframe className="pdf-view__fallback" src={url} title={name ?? 'Pdf preview'} referrerPolicy="no-referrer" />;
}
