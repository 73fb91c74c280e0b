import type { ReactNode } from 'react';
import { ZOOM_BUTTON_STEP, ZOOM_MAX, ZOOM_MIN, zoomPercent } from './pdf/zoom.ts';

/** A button of a view's control bar; its label is both its accessible name and its tooltip. */
export function PreviewButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="preview__button" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * Zoom out, the zoom level and zoom in, stepping by ZOOM_BUTTON_STEP within the limits (pdf and
 * Word views). A null zoom is not known yet (the page is still being measured): both buttons wait.
 */
export function ZoomButtons({
  zoom,
  outputClassName,
  onZoomBy,
}: {
  zoom: number | null;
  outputClassName: string;
  onZoomBy: (step: number) => void;
}) {
  return (
    <>
      <PreviewButton label="Zoom out" disabled={zoom === null || zoom <= ZOOM_MIN} onClick={() => onZoomBy(-ZOOM_BUTTON_STEP)}>
        −
      </PreviewButton>
      <output className={outputClassName} aria-live="polite" aria-label="Zoom level">
        {zoomPercent(zoom ?? 1)}
      </output>
      <PreviewButton label="Zoom in" disabled={zoom === null || zoom >= ZOOM_MAX} onClick={() => onZoomBy(ZOOM_BUTTON_STEP)}>
        +
      </PreviewButton>
    </>
  );
}
