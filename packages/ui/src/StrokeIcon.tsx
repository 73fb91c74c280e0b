import type { SVGProps } from 'react';

export type StrokeIconProps = Omit<SVGProps<SVGSVGElement>, 'width' | 'height'> & {
  /** Width and height in pixels; the drawing is always on a 24-unit grid. */
  size?: number;
};

/**
 * A decorative line icon on the 24-unit grid drawn in currentColor, so it takes the colour of the
 * control it sits in and leaves the label to that control. Any attribute may be overridden; one
 * set to `undefined` is left off (a close cross needs no round joins, a check mark no round ends).
 */
export function StrokeIcon({ size = 20, children, ...attributes }: StrokeIconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      {...attributes}
    >
      {children}
    </svg>
  );
}
