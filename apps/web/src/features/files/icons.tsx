/** Inline SVG icons of the file browser (currentColor, 24-unit grid, decorative). */
import type { ReactNode } from 'react';
import { StrokeIcon } from '@sealbox/ui';
import type { ItemKind } from './format.ts';

function Svg({ children, size = 20 }: { children: ReactNode; size?: number }) {
  return (
    <StrokeIcon size={size} focusable="false" strokeWidth="1.8">
      {children}
    </StrokeIcon>
  );
}

export const Icon = {
  folder: (s?: number) => (
    <Svg size={s}>
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </Svg>
  ),
  folderPlus: (s?: number) => (
    <Svg size={s}>
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      <path d="M12 10v6M9 13h6" />
    </Svg>
  ),
  file: (s?: number) => (
    <Svg size={s}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
    </Svg>
  ),
  image: (s?: number) => (
    <Svg size={s}>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </Svg>
  ),
  video: (s?: number) => (
    <Svg size={s}>
      <rect x="3" y="5" width="14" height="14" rx="2" />
      <path d="m17 10 4-2v8l-4-2" />
    </Svg>
  ),
  audio: (s?: number) => (
    <Svg size={s}>
      <path d="M9 18V5l11-2v13" />
      <circle cx="6" cy="18" r="3" />
      <circle cx="17" cy="16" r="3" />
    </Svg>
  ),
  pdf: (s?: number) => (
    <Svg size={s}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
      <path d="M8 15h1.5a1.5 1.5 0 0 0 0-3H8v5M13 12v5h1a2 2 0 0 0 2-2v-1a2 2 0 0 0-2-2z" />
    </Svg>
  ),
  text: (s?: number) => (
    <Svg size={s}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h6" />
    </Svg>
  ),
  document: (s?: number) => (
    <Svg size={s}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M8 12l1.5 5L12 13l2.5 4L16 12" />
    </Svg>
  ),
  archive: (s?: number) => (
    <Svg size={s}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M11 4v2M11 8v2M11 12v2M10 16h2v2h-2z" />
    </Svg>
  ),
  warning: (s?: number) => (
    <Svg size={s}>
      <path d="M12 3 2 20h20L12 3z" />
      <path d="M12 10v4" />
      <path d="M12 17h.01" />
    </Svg>
  ),
  lock: (s?: number) => (
    <Svg size={s}>
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </Svg>
  ),
  more: (s?: number) => (
    <Svg size={s}>
      <circle cx="12" cy="5" r="1.2" />
      <circle cx="12" cy="12" r="1.2" />
      <circle cx="12" cy="19" r="1.2" />
    </Svg>
  ),
  refresh: (s?: number) => (
    <Svg size={s}>
      <path d="M20 11a8 8 0 1 0-2.3 5.7" />
      <path d="M20 4v7h-7" />
    </Svg>
  ),
  search: (s?: number) => (
    <Svg size={s}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </Svg>
  ),
  grid: (s?: number) => (
    <Svg size={s}>
      <rect x="4" y="4" width="7" height="7" rx="1" />
      <rect x="13" y="4" width="7" height="7" rx="1" />
      <rect x="4" y="13" width="7" height="7" rx="1" />
      <rect x="13" y="13" width="7" height="7" rx="1" />
    </Svg>
  ),
  list: (s?: number) => (
    <Svg size={s}>
      <path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01" />
    </Svg>
  ),
  upload: (s?: number) => (
    <Svg size={s}>
      <path d="M12 16V4M6 10l6-6 6 6M4 20h16" />
    </Svg>
  ),
  download: (s?: number) => (
    <Svg size={s}>
      <path d="M12 4v12M6 10l6 6 6-6M4 20h16" />
    </Svg>
  ),
  home: (s?: number) => (
    <Svg size={s}>
      <path d="m3 11 9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" />
    </Svg>
  ),
  users: (s?: number) => (
    <Svg size={s}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5" />
    </Svg>
  ),
  user: (s?: number) => (
    <Svg size={s}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </Svg>
  ),
  settings: (s?: number) => (
    <Svg size={s}>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
    </Svg>
  ),
  logout: (s?: number) => (
    <Svg size={s}>
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
    </Svg>
  ),
  chevronLeft: (s?: number) => (
    <Svg size={s}>
      <path d="m15 18-6-6 6-6" />
    </Svg>
  ),
  chevronRight: (s?: number) => (
    <Svg size={s}>
      <path d="m9 18 6-6-6-6" />
    </Svg>
  ),
  chevronDown: (s?: number) => (
    <Svg size={s}>
      <path d="m6 9 6 6 6-6" />
    </Svg>
  ),
  menu: (s?: number) => (
    <Svg size={s}>
      <path d="M4 7h16M4 12h16M4 17h16" />
    </Svg>
  ),
  close: (s?: number) => (
    <Svg size={s}>
      <path d="M6 6l12 12M18 6 6 18" />
    </Svg>
  ),
  block: (s?: number) => (
    <Svg size={s}>
      <circle cx="12" cy="12" r="9" />
      <path d="m5.6 5.6 12.8 12.8" />
    </Svg>
  ),
  arrowUp: (s?: number) => (
    <Svg size={s}>
      <path d="M12 19V5M6 11l6-6 6 6" />
    </Svg>
  ),
  arrowDown: (s?: number) => (
    <Svg size={s}>
      <path d="M12 5v14M6 13l6 6 6-6" />
    </Svg>
  ),
  open: (s?: number) => (
    <Svg size={s}>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </Svg>
  ),
  eye: (s?: number) => (
    <Svg size={s}>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </Svg>
  ),
  share: (s?: number) => (
    <Svg size={s}>
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </Svg>
  ),
  pencil: (s?: number) => (
    <Svg size={s}>
      <path d="M4 20h4L19 9l-4-4L4 16z" />
      <path d="m13.5 6.5 4 4" />
    </Svg>
  ),
  trash: (s?: number) => (
    <Svg size={s}>
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </Svg>
  ),
  move: (s?: number) => (
    <Svg size={s}>
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      <path d="M9 13h6M13 10.5l2.5 2.5-2.5 2.5" />
    </Svg>
  ),
  restore: (s?: number) => (
    <Svg size={s}>
      <path d="M4 12a8 8 0 1 0 2.3-5.7L4 8.6" />
      <path d="M4 4v4.6h4.6M12 8v4l3 2" />
    </Svg>
  ),
  info: (s?: number) => (
    <Svg size={s}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v6M12 7.5h.01" />
    </Svg>
  ),
};

export function KindIcon({ kind, size = 20 }: { kind: ItemKind; size?: number }) {
  return Icon[kind](size);
}
