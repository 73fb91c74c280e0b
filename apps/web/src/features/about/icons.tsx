/** Line icons for the About sections; inline SVG keeps them CSP-clean and theme-coloured. */
const common = {
  width: 96,
  height: 96,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export const BoxIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M21 8 12 3 3 8v8l9 5 9-5V8Z" />
    <path d="m3 8 9 5 9-5M12 13v8" />
  </svg>
);

export const ShieldIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6l-8-3Z" />
    <path d="m9 12 2 2 4-4" />
  </svg>
);

export const LinkIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
    <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  </svg>
);

export const MaskIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M3 7c3-1 6-1 9 1 3-2 6-2 9-1 0 6-3 10-6 10-1.5 0-2-1-3-2-1 1-1.5 2-3 2-3 0-6-4-6-10Z" />
    <path d="M7 11h2M15 11h2" />
  </svg>
);

export const HandshakeIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M12 21s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 11c0 5.6-7 10-7 10Z" />
  </svg>
);
