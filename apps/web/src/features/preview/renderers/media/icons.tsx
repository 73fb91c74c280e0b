/** Media control icons (inline SVG, currentColor, hidden from assistive technology: buttons carry the labels). */
import type { ReactNode } from 'react';

function Svg({ children }: { children: ReactNode }) {
  return (
    <svg className="media-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const PlayIcon = () => (
  <Svg>
    <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
  </Svg>
);
export const PauseIcon = () => (
  <Svg>
    <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor" />
  </Svg>
);
export const VolumeIcon = () => (
  <Svg>
    <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor" />
    <path
      d="M15 9a4 4 0 0 1 0 6M17.5 6.5a7.5 7.5 0 0 1 0 11"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
    />
  </Svg>
);
export const MutedIcon = () => (
  <Svg>
    <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor" />
    <path d="M15.5 9.5l5 5M20.5 9.5l-5 5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
  </Svg>
);
/** The circular arrows of a 10-second seek: back (left, anticlockwise) or on (right, clockwise). */
const SEEK_ARROWS = {
  left: 'M12 5V2L7 6l5 4V7a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8z',
  right: 'M12 5V2l5 4-5 4V7a6 6 0 1 0 6 6h2a8 8 0 1 1-8-8z',
} as const;
export const SeekIcon = ({ side }: { side: keyof typeof SEEK_ARROWS }) => (
  <Svg>
    <path d={SEEK_ARROWS[side]} fill="currentColor" />
    <text x="12" y="16" textAnchor="middle" fontSize="6.5" fontWeight="700" fill="currentColor">
      10
    </text>
  </Svg>
);
export const FullscreenIcon = () => (
  <Svg>
    <path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
  </Svg>
);
export const ExitFullscreenIcon = () => (
  <Svg>
    <path d="M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
  </Svg>
);
