import { useEffect, useState } from 'react';

/** docs/product.md "Limits": the navbar turns translucent after 10 px of scrolling. */
export const NAV_SCROLL_THRESHOLD_PX = 10;

export function useScrolledPast(threshold = NAV_SCROLL_THRESHOLD_PX): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const update = () => setPast(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return past;
}
