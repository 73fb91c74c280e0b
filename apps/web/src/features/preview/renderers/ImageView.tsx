import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Spinner } from '@sealbox/ui';
import { PREVIEW_ERRORS, type RendererProps } from '../types.ts';
import { clampZoom, ZOOM_BUTTON_STEP, ZOOM_MAX, ZOOM_MIN, ZOOM_WHEEL_STEP, zoomPercent } from './pdf/zoom.ts';

interface View {
  scale: number;
  x: number;
  y: number;
}

const RESET: View = { scale: 1, x: 0, y: 0 };

/** An SVG by its type or name: it may carry script, so it never gets a URL of our origin. */
export function isSvg(file: Pick<RendererProps['file'], 'mimeType' | 'extension'>): boolean {
  return (file.mimeType ?? '').toLowerCase().includes('svg') || file.extension === 'svg' || file.extension === 'svgz';
}

/** A data: URL of `blob`, typed `type`. */
function dataUrlOf(blob: Blob, type: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(PREVIEW_ERRORS.decrypt));
    reader.readAsDataURL(new Blob([blob], { type }));
  });
}

/**
 * docs/product.md "Screens" image: wheel, pinch and drag zoom, buttons, double-click resets. Always
 * an <img>: in an <img> an SVG never runs script nor loads anything. A raster image is shown from
 * the object URL; an SVG from a data: URL, because an object URL of our origin could be opened at
 * top level ("copy image address", pasted) and run the SVG's script with our origin's rights, while
 * a data: URL opened that way runs in an opaque origin with no access to ours (docs/protocol.md
 * "Threat table", hostile previews).
 */
export function ImageView({ file, blob, objectUrl, onError }: RendererProps) {
  const [url, setUrl] = useState<string | null>(null);
  const [view, setView] = useState<View>(RESET);
  const stage = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number; scale: number } | null>(null);
  const svg = isSvg(file);

  useEffect(() => {
    let live = true;
    (svg ? blob().then((bytes) => dataUrlOf(bytes, 'image/svg+xml')) : objectUrl()).then(
      (made) => live && setUrl(made),
      () => undefined, // the shell shows the error
    );
    return () => {
      live = false;
    };
  }, [svg, blob, objectUrl]);

  // The wheel zooms rather than scrolls the page: a listener that may cancel (React's is passive).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stage mounts once the URL is here
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const step = event.deltaY < 0 ? ZOOM_WHEEL_STEP : -ZOOM_WHEEL_STEP;
      setView((v) => ({ ...v, scale: clampZoom(v.scale + step) }));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [url]);

  const zoomBy = (step: number) => setView((v) => ({ ...v, scale: clampZoom(v.scale + step) }));

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2) pinch.current = { distance: distance(), scale: view.scale };
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const last = pointers.current.get(event.pointerId);
    if (!last) return;
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const start = pinch.current;
    if (pointers.current.size >= 2 && start && start.distance > 0) {
      const scale = clampZoom((start.scale * distance()) / start.distance);
      setView((v) => ({ ...v, scale }));
    } else if (pointers.current.size === 1) {
      setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
    }
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };

  if (!url) {
    return (
      <div className="preview__loading">
        <Spinner label="Loading preview" />
      </div>
    );
  }
  return (
    <div className="image-view">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pointer gestures; the zoom buttons are their keyboard equivalent */}
      <div
        ref={stage}
        className="image-view__stage"
        data-scale={view.scale}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => setView(RESET)}
      >
        <img
          className="image-view__image"
          src={url}
          alt={file.name ?? 'Image preview'}
          draggable={false}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
          onError={() => onError(PREVIEW_ERRORS.decrypt)}
        />
      </div>
      <fieldset className="image-view__controls">
        <legend className="sb-visually-hidden">Zoom</legend>
        <button
          type="button"
          className="preview__button"
          aria-label="Zoom out"
          disabled={view.scale <= ZOOM_MIN}
          onClick={() => zoomBy(-ZOOM_BUTTON_STEP)}
        >
          −
        </button>
        <output className="image-view__zoom" aria-live="polite" aria-label="Zoom level">
          {zoomPercent(view.scale)}
        </output>
        <button
          type="button"
          className="preview__button"
          aria-label="Zoom in"
          disabled={view.scale >= ZOOM_MAX}
          onClick={() => zoomBy(ZOOM_BUTTON_STEP)}
        >
          +
        </button>
        <button type="button" className="preview__button image-view__reset" onClick={() => setView(RESET)}>
          Reset
        </button>
      </fieldset>
    </div>
  );
}
