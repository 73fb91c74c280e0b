import type { CSSProperties } from 'react';

export interface SpinnerProps {
  size?: number;
  /** Accessible description; the spinner is announced as a status. */
  label?: string;
}

export function Spinner({ size = 24, label = 'Loading' }: SpinnerProps) {
  // A custom property (set through CSSOM, so CSP-safe) keeps sizing in the stylesheet.
  const style = { '--sb-spinner-size': `${size}px` } as CSSProperties;
  return (
    <span role="status" aria-live="polite">
      <span className="sb-spinner" style={style} aria-hidden="true" />
      <span className="sb-visually-hidden">{label}</span>
    </span>
  );
}
