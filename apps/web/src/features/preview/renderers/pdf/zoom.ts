/** docs/product.md "Limits": zoom 0.2 to 5; buttons step 0.2, the wheel 0.1 (pdf, Word and image views). */
export const ZOOM_MIN = 0.2;
export const ZOOM_MAX = 5;
export const ZOOM_BUTTON_STEP = 0.2;
export const ZOOM_WHEEL_STEP = 0.1;

/** `value` within the zoom limits, rounded to hundredths (so steps add up exactly). */
export function clampZoom(value: number): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(value * 100) / 100));
}

export function zoomPercent(zoom: number): string {
  return `${Math.round(zoom * 100)}%`;
}

/** A page number typed in the page box: digits only, within 1..count; null when not a page. */
export function parsePage(text: string, count: number): number | null {
  if (!/^\d+$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= count ? page : null;
}
