/**
 * Calls `onSeen` once, when `element` first comes into view (at once where there is no
 * IntersectionObserver). Returns what stops watching.
 */
export function whenFirstSeen(element: Element, options: IntersectionObserverInit, onSeen: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    onSeen();
    return () => {};
  }
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) {
      observer.disconnect();
      onSeen();
    }
  }, options);
  observer.observe(element);
  return () => observer.disconnect();
}
