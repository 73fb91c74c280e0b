import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void) {
  let frame = 0;
  const onResize = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(listener);
  };
  globalThis.addEventListener?.('resize', onResize);
  return () => {
    cancelAnimationFrame(frame);
    globalThis.removeEventListener?.('resize', onResize);
  };
}

/** The viewport width in CSS pixels, following resizes (one update per frame). */
export function useViewportWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => globalThis.innerWidth ?? 1280,
    () => 1280,
  );
}

/** docs/product.md "Limits": the mobile breakpoint (sidebar overlay, collapsed breadcrumbs). */
export const MOBILE_BREAKPOINT = 768;
