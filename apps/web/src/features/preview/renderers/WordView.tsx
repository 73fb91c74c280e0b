import { useEffect, useState } from 'react';
import mammoth from 'mammoth';
import { Spinner } from '@sealbox/ui';
import { PREVIEW_ERRORS, type RendererProps } from '../types.ts';
import { clampZoom } from './pdf/zoom.ts';
import { ZoomButtons } from './zoom-controls.tsx';
import { frameDocument, WORD_FRAME_SANDBOX } from './word/frame.ts';
import { sanitizeWordHtml } from './word/sanitize.ts';
import './word/word-view.css';

/**
 * docs/product.md "Screens" Word: a .docx converted to HTML by mammoth, cleaned by DOMPurify and
 * shown on a white page in a sandboxed srcdoc frame, with zoom 0.2 to 5. Anything mammoth cannot
 * read (a .doc among them) shows 'Failed to load Word document.'.
 */
export function WordView({ file, blob, onError }: RendererProps) {
  const [html, setHtml] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);

  useEffect(() => {
    let live = true;
    blob()
      .then(async (whole) => {
        let page: string;
        try {
          const converted = await mammoth.convertToHtml({ arrayBuffer: await whole.arrayBuffer() });
          page = frameDocument(sanitizeWordHtml(converted.value));
        } catch {
          if (live) onError(PREVIEW_ERRORS.word);
          return;
        }
        if (live) setHtml(page);
      })
      .catch(() => undefined); // blob() failing is the shell's error to show
    return () => {
      live = false;
    };
  }, [blob, onError]);

  if (html === null) {
    return (
      <div className="preview__loading">
        <Spinner label="Loading preview" />
      </div>
    );
  }
  const zoomBy = (step: number) => setZoom((z) => clampZoom(z + step));
  return (
    <div className="word-view" data-zoom={zoom}>
      <div className="word-view__stage">
        <iframe
          className="word-view__frame"
          title={file.name ?? 'Word document'}
          sandbox={WORD_FRAME_SANDBOX}
          srcDoc={html}
          referrerPolicy="no-referrer"
          // The page reflows to the frame's width / zoom and is scaled back up to fill the stage.
          style={{ width: `${100 / zoom}%`, height: `${100 / zoom}%`, transform: `scale(${zoom})` }}
        />
      </div>
      <fieldset className="word-view__controls" aria-label="Zoom">
        <ZoomButtons zoom={zoom} outputClassName="word-view__zoom" onZoomBy={zoomBy} />
        <button type="button" className="preview__button" onClick={() => setZoom(1)}>
          Reset
        </button>
      </fieldset>
    </div>
  );
}
