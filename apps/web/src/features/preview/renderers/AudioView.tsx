/**
 * Audio (docs/product.md "Screens"): play, seek bar, volume (0-1, step 0.01), mute; Space toggles
 * play. A remote item plays from the service worker's Range stream (only the chunks played are
 * fetched and decrypted), a local file from its object URL.
 */
import { useRef } from 'react';
import { ENCRYPTED_FILE } from '../../../model/item-names.ts';
import type { RendererProps } from '../types.ts';
import { PlayButton, SeekBar, useMediaKeys, useMediaSource, useMediaState, VolumeControls } from './media/controls.tsx';
import './media/media.css';

export function AudioView(props: RendererProps) {
  const media = useRef<HTMLAudioElement>(null);
  const source = useMediaSource(props);
  const { src } = source;
  const state = useMediaState(media, source, props.onError);
  useMediaKeys(media);
  return (
    <div className="media-audio-stage">
      <div className="media-audio" data-testid="audio-view">
        <div className="media-audio__art" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="56" height="56" aria-hidden="true">
            <path d="M9 17.5V6l10-2v11.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
            <circle cx="6.5" cy="17.5" r="2.5" fill="currentColor" />
            <circle cx="16.5" cy="15.5" r="2.5" fill="currentColor" />
          </svg>
        </div>
        <p className="media-audio__name">{props.file.name || ENCRYPTED_FILE}</p>
        {/* biome-ignore lint/a11y/useMediaCaption: a user's own audio file has no captions to offer */}
        <audio ref={media} src={src ?? undefined} preload="metadata" />
        <fieldset className="media-controls media-controls--audio" aria-label="Audio controls">
          <PlayButton media={media} playing={state.playing} />
          <SeekBar media={media} time={state.time} duration={state.duration} />
          <VolumeControls media={media} volume={state.volume} muted={state.muted} />
        </fieldset>
      </div>
    </div>
  );
}
