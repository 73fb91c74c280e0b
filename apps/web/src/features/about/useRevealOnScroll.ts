import { useEffect, useRef, useState, type RefObject } from 'react';
import { whenFirstSeen } from '../../lib/first-seen.ts';

/**
 * True once the element has scrolled into view (and stays true). Without
 * IntersectionObserver, or with reduced motion asked for, content is shown at once.
 */
export function useRevealOnScroll<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [revealed, setRevealed] = useState(false);

  useEffect(() => {
    const element = ref.current;
    const reduceMotion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    if (!element || reduceMotion) {
      setRevealed(true);
      return;
    }
    return whenFirstSeen(element, { threshold: 0.15 }, () => setRevealed(true));
  }, []);

  return [ref, revealed];
}
