/**
 * Pieces the audio and video views share: where the media comes from (a service-worker stream
 * for remote items, the object URL for local files), the play state of an element, and the
 * controls both show (play, seek bar, time, volume 0-1 step 0.01, mute). Styled in media.css.
 */
import { type CSSProperties, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { previewStreamAlive, releasePreviewStream } from '../../../transfers/index.ts';
import { PREVIEW_ERRORS, type RendererProps } from '../../types.ts';
import { MutedIcon, PauseIcon, PlayIcon, VolumeIcon } from './icons.tsx';

/** docs/product.md "Limits": seek step. */
export const SEEK_STEP_S = 10;

/** How many times a view replaces a stream the service worker lost (restart or update). */
const MAX_RENEWALS = 3;

export interface MediaSource {
  src: string | null;
  /**
   * After the element failed: when its stream was lost by the service worker (not a failed
   * decryption: the job is still there then), makes a new one and resolves true; false otherwise.
   */
  renew: () => Promise<boolean>;
}

/**
 * The src for the media element: `streamUrl()` when the shell gives one, else `objectUrl()`;
 * a stream is released when the view goes or replaces it.
 */
export function useMediaSource({ streamUrl, objectUrl, onError }: RendererProps): MediaSource {
  const [src, setSrc] = useState<string | null>(null);
  const fail = useRef(onError);
  fail.current = onError;
  const current = useRef<string | undefined>(undefined);
  const mounted = useRef(false);
  const renewals = useRef(0);
  useEffect(() => {
    mounted.current = true;
    const streamed = streamUrl !== undefined;
    (streamUrl ?? objectUrl)().then(
      (url) => {
        if (!mounted.current) {
          if (streamed) releasePreviewStream(url);
          return;
        }
        current.current = url;
        setSrc(url);
      },
      (error: unknown) => {
        if (!mounted.current) return;
        const message = error instanceof Error ? error.message : '';
        fail.current((Object.values(PREVIEW_ERRORS) as string[]).includes(message) ? message : PREVIEW_ERRORS.decrypt);
      },
    );
    return () => {
      mounted.current = false;
      if (current.current && streamed) releasePreviewStream(current.current);
      current.current = undefined;
    };
  }, [streamUrl, objectUrl]);

  const renew = useCallback(async (): Promise<boolean> => {
    const old = current.current;
    if (!streamUrl || !old || renewals.current >= MAX_RENEWALS) return false;
    // Still held: the failure was the data's (a chunk that did not authenticate), not a lost job.
    if (await previewStreamAlive(old)) return false;
    renewals.current += 1;
    try {
      const url = await streamUrl();
      if (!mounted.current) {
        releasePreviewStream(url);
        return true;
      }
      releasePreviewStream(old);
      current.current = url;
      setSrc(url);
      return true;
    } catch {
      return false;
    }
  }, [streamUrl]);

  return { src, renew };
}

export interface MediaState {
  playing: boolean;
  time: number;
  duration: number;
  volume: number;
  muted: boolean;
}

/**
 * Follows the element's state, and reports a failed load or decode (a chunk that failed
 * authentication errors the stream) as docs/product.md "Messages" 'Error decrypting file.'. A
 * stream the service worker lost is replaced once `renew` made a new one, playing on from where it
 * was.
 */
export function useMediaState(ref: RefObject<HTMLMediaElement | null>, source: MediaSource, onError: (message: string) => void) {
  const [state, setState] = useState<MediaState>({ playing: false, time: 0, duration: 0, volume: 1, muted: false });
  const fail = useRef(onError);
  fail.current = onError;
  const renew = useRef(source.renew);
  renew.current = source.renew;
  const resume = useRef<{ time: number; play: boolean } | null>(null);
  const { src } = source;
  useEffect(() => {
    const media = ref.current;
    if (!media || !src) return;
    const read = () =>
      setState({
        playing: !media.paused && !media.ended,
        time: media.currentTime,
        duration: Number.isFinite(media.duration) ? media.duration : 0,
        volume: media.volume,
        muted: media.muted,
      });
    const failed = () => {
      const at = { time: media.currentTime, play: !media.paused };
      media.pause();
      void renew.current().then((renewed) => {
        if (renewed) resume.current = at;
        else fail.current(PREVIEW_ERRORS.decrypt);
      });
    };
    const resumed = () => {
      const at = resume.current;
      if (!at) return;
      resume.current = null;
      media.currentTime = at.time;
      if (at.play) media.play().catch(() => {});
    };
    const events = [
      'play',
      'pause',
      'ended',
      'timeupdate',
      'durationchange',
      'loadedmetadata',
      'volumechange',
      'seeking',
      'seeked',
    ];
    for (const name of events) media.addEventListener(name, read);
    media.addEventListener('loadedmetadata', resumed);
    media.addEventListener('error', failed);
    if (media.error) failed();
    read();
    return () => {
      for (const name of events) media.removeEventListener(name, read);
      media.removeEventListener('loadedmetadata', resumed);
      media.removeEventListener('error', failed);
    };
  }, [ref, src]);
  return state;
}

export function togglePlay(media: HTMLMediaElement | null): void {
  if (!media) return;
  // A refused play() (no gesture, or the element failed) is reported by the element's own events.
  if (media.paused || media.ended) media.play().catch(() => {});
  else media.pause();
}

export function seekBy(media: HTMLMediaElement | null, seconds: number): void {
  if (!media) return;
  const end = Number.isFinite(media.duration) ? media.duration : Number.POSITIVE_INFINITY;
  media.currentTime = Math.min(Math.max(0, media.currentTime + seconds), end);
}

/** 0:07, 1:02:03 */
export function formatTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** True when a key press belongs to a field (typing a space there must not toggle play). */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && target.type !== 'range' && target.type !== 'checkbox' && target.type !== 'button';
}

/**
 * Space toggles play (docs/product.md "Screens"); `more` may handle other keys. Listens on window
 * in the capture phase so it runs before the shell's own key handling, which skips events already
 * defaultPrevented (types.ts).
 */
export function useMediaKeys(ref: RefObject<HTMLMediaElement | null>, more?: (event: KeyboardEvent) => boolean) {
  const extra = useRef(more);
  extra.current = more;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typingIn(event.target)) return;
      if (event.key === ' ' || event.code === 'Space') {
        event.preventDefault();
        togglePlay(ref.current);
        return;
      }
      if (extra.current?.(event)) event.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [ref]);
}

export function PlayButton({ media, playing }: { media: RefObject<HTMLMediaElement | null>; playing: boolean }) {
  return (
    <button
      type="button"
      className="media-button media-button--play"
      aria-label={playing ? 'Pause' : 'Play'}
      title={playing ? 'Pause' : 'Play'}
      onClick={() => togglePlay(media.current)}
    >
      {playing ? <PauseIcon /> : <PlayIcon />}
    </button>
  );
}

export function SeekBar({
  media,
  time,
  duration,
}: {
  media: RefObject<HTMLMediaElement | null>;
  time: number;
  duration: number;
}) {
  const progress = duration > 0 ? Math.min(100, (time / duration) * 100) : 0;
  // No duration stored: the time played so far, and no seek bar that could not seek.
  if (!(duration > 0))
    return (
      <div className="media-seek">
        <span className="media-time" role="timer" aria-label="Time played">
          {formatTime(time)}
        </span>
      </div>
    );
  return (
    <div className="media-seek">
      <span className="media-time" aria-hidden="true">
        {formatTime(time)}
      </span>
      <input
        type="range"
        className="media-range media-range--seek"
        aria-label="Seek"
        aria-valuetext={`${formatTime(time)} of ${formatTime(duration)}`}
        min={0}
        max={duration}
        step={0.1}
        value={Math.min(time, duration)}
        style={{ '--media-fill': `${progress}%` } as CSSProperties}
        onChange={(event) => {
          const element = media.current;
          if (element) element.currentTime = Number(event.currentTarget.value);
        }}
      />
      <span className="media-time" aria-hidden="true">
        {formatTime(duration)}
      </span>
    </div>
  );
}

export function VolumeControls({
  media,
  volume,
  muted,
}: {
  media: RefObject<HTMLMediaElement | null>;
  volume: number;
  muted: boolean;
}) {
  const silent = muted || volume === 0;
  const setVolume = useCallback(
    (value: number) => {
      const element = media.current;
      if (!element) return;
      element.volume = value;
      if (value > 0 && element.muted) element.muted = false;
    },
    [media],
  );
  return (
    <div className="media-volume">
      <button
        type="button"
        className="media-button"
        aria-label={muted ? 'Unmute' : 'Mute'}
        aria-pressed={muted}
        title={muted ? 'Unmute' : 'Mute'}
        onClick={() => {
          const element = media.current;
          if (element) element.muted = !element.muted;
        }}
      >
        {silent ? <MutedIcon /> : <VolumeIcon />}
      </button>
      <input
        type="range"
        className="media-range media-range--volume"
        aria-label="Volume"
        min={0}
        max={1}
        step={0.01}
        value={muted ? 0 : volume}
        style={{ '--media-fill': `${(muted ? 0 : volume) * 100}%` } as CSSProperties}
        onChange={(event) => setVolume(Number(event.currentTarget.value))}
      />
    </div>
  );
}
