/**
 * Video (docs/product.md "Screens" and "Limits"): play/pause, seek bar, rewind and forward 10 s,
 * double-tap on the left or right half to seek 10 s (300 ms window; a seek icon flashes 500 ms),
 * speeds 0.25-2, volume, mute, fullscreen. Space toggles play, left/right arrows seek 10 s (and are
 * marked defaultPrevented so the shell does not cycle), controls hide after 1000 ms without
 * activity while playing. A remote item plays from the service worker's Range stream: a seek
 * fetches and decrypts only the chunks around the new position.
 */
import { type PointerEvent as ReactPointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { cx } from '@sealbox/ui';
import type { RendererProps } from '../types.ts';
import {
  PlayButton,
  SEEK_STEP_S,
  SeekBar,
  seekBy,
  togglePlay,
  useMediaKeys,
  useMediaSource,
  useMediaState,
  VolumeControls,
} from './media/controls.tsx';
import { ExitFullscreenIcon, FullscreenIcon, SeekIcon } from './media/icons.tsx';
import './media/media.css';

/** docs/product.md "Limits" */
export const DOUBLE_TAP_MS = 300;
export const CONTROLS_HIDE_MS = 1000;
export const SEEK_FLASH_MS = 500;
export const SPEEDS: ReadonlyArray<{ value: number; label: string }> = [
  { value: 0.25, label: '0.25' },
  { value: 0.5, label: '0.5' },
  { value: 0.75, label: '0.75' },
  { value: 1, label: 'Normal' },
  { value: 1.25, label: '1.25' },
  { value: 1.5, label: '1.5' },
  { value: 2, label: '2' },
];

type Side = 'left' | 'right';
const SIDES: readonly Side[] = ['left', 'right'];
const SEEK_LABELS: Record<Side, string> = { left: 'Rewind 10 seconds', right: 'Forward 10 seconds' };

export function VideoView(props: RendererProps) {
  const media = useRef<HTMLVideoElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const source = useMediaSource(props);
  const { src } = source;
  const state = useMediaState(media, source, props.onError);
  const [speed, setSpeed] = useState(1);
  const [fullscreen, setFullscreen] = useState(false);
  const [flash, setFlash] = useState<{ side: Side; at: number } | null>(null);
  const [active, setActive] = useState(true);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastTap = useRef<{ side: Side; at: number } | null>(null);
  const singleTap = useRef<ReturnType<typeof setTimeout>>(undefined);

  /** Any activity shows the controls; they hide after CONTROLS_HIDE_MS of none. */
  const wake = useCallback(() => {
    setActive(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setActive(false), CONTROLS_HIDE_MS);
  }, []);

  useEffect(() => {
    wake();
    return () => {
      clearTimeout(hideTimer.current);
      clearTimeout(singleTap.current);
    };
  }, [wake]);

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), SEEK_FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frame.current && frame.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // A recording that stores no duration (a browser's MediaRecorder webm) cannot be sought in:
  // no 10-second steps, by button, key or double tap (docs/web-files.md "First minutes").
  const seekable = state.duration > 0;
  const canSeek = useRef(seekable);
  canSeek.current = seekable;
  const seek = useCallback(
    (side: Side) => {
      if (!canSeek.current) return wake();
      seekBy(media.current, side === 'left' ? -SEEK_STEP_S : SEEK_STEP_S);
      setFlash({ side, at: Date.now() });
      wake();
    },
    [wake],
  );

  useMediaKeys(media, (event) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      // Seek, and keep the shell from cycling to the next file (it skips defaultPrevented keys).
      seek(event.key === 'ArrowLeft' ? 'left' : 'right');
      return true;
    }
    wake();
    return false;
  });

  /** A second tap on the same half within DOUBLE_TAP_MS seeks; a lone tap toggles play. */
  const onTap = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    wake();
    const box = event.currentTarget.getBoundingClientRect();
    const side: Side = event.clientX - box.left < box.width / 2 ? 'left' : 'right';
    const now = Date.now();
    const previous = lastTap.current;
    if (previous && previous.side === side && now - previous.at <= DOUBLE_TAP_MS) {
      clearTimeout(singleTap.current);
      lastTap.current = null;
      seek(side);
      return;
    }
    lastTap.current = { side, at: now };
    clearTimeout(singleTap.current);
    singleTap.current = setTimeout(() => {
      lastTap.current = null;
      togglePlay(media.current);
    }, DOUBLE_TAP_MS);
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void frame.current?.requestFullscreen().catch(() => {});
  };

  const shown = active || !state.playing;
  return (
    <div
      ref={frame}
      className={cx('media-video', !shown && 'media-video--idle')}
      data-testid="video-view"
      data-controls={shown ? 'visible' : 'hidden'}
      onPointerMove={wake}
      onPointerDown={wake}
      onFocusCapture={wake}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: a user's own video file has no captions to offer */}
      <video ref={media} className="media-video__element" src={src ?? undefined} preload="metadata" playsInline />
      <div className="media-video__taps" data-testid="video-taps" onPointerUp={onTap} aria-hidden="true">
        {flash && (
          <span key={flash.at} className={cx('media-video__flash', `media-video__flash--${flash.side}`)} data-testid="seek-flash">
            <SeekIcon side={flash.side} />
          </span>
        )}
      </div>
      <fieldset className="media-controls media-controls--video" aria-label="Video controls">
        <SeekBar media={media} time={state.time} duration={state.duration} />
        <div className="media-controls__row">
          <PlayButton media={media} playing={state.playing} />
          {(seekable ? SIDES : []).map((side) => (
            <button
              key={side}
              type="button"
              className="media-button"
              aria-label={SEEK_LABELS[side]}
              title={SEEK_LABELS[side]}
              onClick={() => seek(side)}
            >
              <SeekIcon side={side} />
            </button>
          ))}
          <VolumeControls media={media} volume={state.volume} muted={state.muted} />
          <span className="media-controls__spacer" />
          <label className="media-speed">
            <span className="media-speed__label">Speed</span>
            <select
              className="media-speed__select"
              value={String(speed)}
              onChange={(event) => {
                const value = Number(event.currentTarget.value);
                setSpeed(value);
                if (!media.current) return;
                media.current.defaultPlaybackRate = value;
                media.current.playbackRate = value;
              }}
            >
              {SPEEDS.map((option) => (
                <option key={option.value} value={String(option.value)}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="media-button"
            aria-label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
            title={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
            onClick={toggleFullscreen}
          >
            {fullscreen ? <ExitFullscreenIcon /> : <FullscreenIcon />}
          </button>
        </div>
      </fieldset>
    </div>
  );
}
