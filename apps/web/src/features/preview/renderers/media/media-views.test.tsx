/**
 * The audio and video views' rules (docs/product.md "Screens" and "Limits") on a stand-in media
 * element: speeds, ±10 s by buttons and arrows (marked defaultPrevented so the shell does not
 * cycle), Space, double-tap within 300 ms on either half with a 500 ms seek flash, controls hidden
 * after 1000 ms of no activity while playing, volume 0-1 step 0.01, and a failed element reported
 * as docs/product.md "Messages" text.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { RendererProps } from '../../types.ts';
import { AudioView } from '../AudioView.tsx';
import { CONTROLS_HIDE_MS, DOUBLE_TAP_MS, SEEK_FLASH_MS, VideoView } from '../VideoView.tsx';

/** Gives a rendered <video>/<audio> a duration, a settable position and play/pause that fire their events. */
function standIn(element: HTMLMediaElement, duration = 60) {
  let time = 0;
  let paused = true;
  Object.defineProperties(element, {
    duration: { configurable: true, get: () => duration },
    currentTime: {
      configurable: true,
      get: () => time,
      set: (value: number) => {
        time = value;
        element.dispatchEvent(new Event('timeupdate'));
      },
    },
    paused: { configurable: true, get: () => paused },
    ended: { configurable: true, get: () => false },
    error: { configurable: true, get: () => null },
  });
  element.play = vi.fn(async () => {
    paused = false;
    element.dispatchEvent(new Event('play'));
  });
  element.pause = vi.fn(() => {
    paused = true;
    element.dispatchEvent(new Event('pause'));
  });
  element.dispatchEvent(new Event('loadedmetadata'));
  return element;
}

function props(partial: Partial<RendererProps> = {}): RendererProps {
  return {
    file: { name: 'clip.mp4', mimeType: 'video/mp4', extension: 'mp4', size: 10 },
    blob: async () => new Blob(['x']),
    objectUrl: async () => 'blob:https://sealbox.test/clip',
    onError: vi.fn(),
    ...partial,
  };
}

async function renderVideo(partial: Partial<RendererProps> = {}, duration = 60) {
  const given = props(partial);
  const view = render(<VideoView {...given} />);
  await act(async () => {});
  const video = standIn(view.container.querySelector('video')!, duration);
  await act(async () => {});
  return { video, given, view };
}

const key = (name: string) => {
  const event = new KeyboardEvent('keydown', { key: name, code: name === ' ' ? 'Space' : name, bubbles: true, cancelable: true });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
};

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    left: 0,
    top: 0,
    width: 400,
    height: 300,
    right: 400,
    bottom: 300,
    x: 0,
    y: 0,
    toJSON: () => ({}),
  } as DOMRect);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('VideoView', () => {
  it('offers the speeds of docs/product.md "Screens" and applies them', async () => {
    const { video } = await renderVideo();
    const speed = screen.getByLabelText('Speed') as HTMLSelectElement;
    expect([...speed.options].map((o) => o.textContent)).toEqual(['0.25', '0.5', '0.75', 'Normal', '1.25', '1.5', '2']);
    expect(speed.value).toBe('1');
    fireEvent.change(speed, { target: { value: '0.25' } });
    expect(video.playbackRate).toBe(0.25);
  });

  it('seeks 10 s by the buttons and the arrow keys, which it claims from the shell', async () => {
    const { video } = await renderVideo();
    fireEvent.click(screen.getByRole('button', { name: 'Forward 10 seconds' }));
    expect(video.currentTime).toBe(10);
    const right = key('ArrowRight');
    expect(right.defaultPrevented).toBe(true);
    expect(video.currentTime).toBe(20);
    const left = key('ArrowLeft');
    expect(left.defaultPrevented).toBe(true);
    expect(video.currentTime).toBe(10);
    fireEvent.click(screen.getByRole('button', { name: 'Rewind 10 seconds' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rewind 10 seconds' }));
    expect(video.currentTime).toBe(0);
    video.currentTime = 55;
    key('ArrowRight');
    expect(video.currentTime).toBe(60);
  });

  it('a recording with no duration shows the time played, and offers no seek it cannot do', async () => {
    const { video } = await renderVideo({}, Number.POSITIVE_INFINITY);
    expect(screen.queryByRole('slider', { name: 'Seek' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Forward 10 seconds' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rewind 10 seconds' })).toBeNull();
    expect(screen.getByRole('timer', { name: 'Time played' }).textContent).toBe('0:00');
    video.currentTime = 7;
    key('ArrowRight');
    expect(video.currentTime).toBe(7);
    expect(screen.getByRole('timer', { name: 'Time played' }).textContent).toBe('0:07');
  });

  it('toggles play with Space, and not while typing in a field', async () => {
    const { video } = await renderVideo();
    expect(key(' ').defaultPrevented).toBe(true);
    expect(video.play).toHaveBeenCalledTimes(1);
    key(' ');
    expect(video.pause).toHaveBeenCalledTimes(1);
    const field = document.createElement('input');
    document.body.append(field);
    const typed = new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true, cancelable: true });
    field.dispatchEvent(typed);
    expect(typed.defaultPrevented).toBe(false);
    expect(video.play).toHaveBeenCalledTimes(1);
    field.remove();
  });

  it('seeks on a double-tap within 300 ms on either half, flashing the seek icon for 500 ms', async () => {
    vi.useFakeTimers();
    const { video } = await renderVideo();
    const taps = screen.getByTestId('video-taps');
    video.currentTime = 30;
    fireEvent.pointerUp(taps, { clientX: 300, button: 0 });
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS - 50));
    fireEvent.pointerUp(taps, { clientX: 320, button: 0 });
    expect(video.currentTime).toBe(40);
    expect(screen.getByTestId('seek-flash')).toBeTruthy();
    act(() => vi.advanceTimersByTime(SEEK_FLASH_MS));
    expect(screen.queryByTestId('seek-flash')).toBeNull();
    // A double-tap is not also a tap: play was not toggled.
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    expect(video.play).not.toHaveBeenCalled();

    fireEvent.pointerUp(taps, { clientX: 50, button: 0 });
    fireEvent.pointerUp(taps, { clientX: 60, button: 0 });
    expect(video.currentTime).toBe(30);

    // Too slow, or on different halves: taps, each toggling play once the window has passed.
    fireEvent.pointerUp(taps, { clientX: 300, button: 0 });
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS + 10));
    expect(video.play).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(taps, { clientX: 300, button: 0 });
    fireEvent.pointerUp(taps, { clientX: 100, button: 0 });
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS + 10));
    expect(video.currentTime).toBe(30);
  });

  it('hides the controls after 1000 ms without activity while playing, and shows them on a move', async () => {
    vi.useFakeTimers();
    const { video } = await renderVideo();
    const frame = screen.getByTestId('video-view');
    await act(async () => {
      await video.play();
    });
    act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS - 100));
    expect(frame.dataset.controls).toBe('visible');
    act(() => vi.advanceTimersByTime(100));
    expect(frame.dataset.controls).toBe('hidden');
    fireEvent.pointerMove(frame);
    expect(frame.dataset.controls).toBe('visible');
    act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS));
    expect(frame.dataset.controls).toBe('hidden');
    // Paused: they stay.
    act(() => video.pause());
    expect(frame.dataset.controls).toBe('visible');
  });

  it("reports a failed element as 'Error decrypting file.'", async () => {
    const { video, given } = await renderVideo();
    act(() => {
      video.dispatchEvent(new Event('error'));
    });
    await act(async () => {});
    expect(given.onError).toHaveBeenCalledWith('Error decrypting file.');
  });

  it('plays the stream when the shell gives one, and the object URL otherwise', async () => {
    const { video } = await renderVideo({ streamUrl: async () => '/__preview/1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b' });
    expect(video.getAttribute('src')).toBe('/__preview/1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b');
    cleanup();
    const local = await renderVideo();
    expect(local.video.getAttribute('src')).toBe('blob:https://sealbox.test/clip');
  });
});

describe('AudioView', () => {
  it('plays, mutes and sets the volume from 0 to 1 in steps of 0.01', async () => {
    const view = render(
      <AudioView {...props({ file: { name: 'tone.wav', mimeType: 'audio/wav', extension: 'wav', size: 10 } })} />,
    );
    await act(async () => {});
    const audio = standIn(view.container.querySelector('audio')!);
    await act(async () => {});
    const volume = screen.getByLabelText('Volume') as HTMLInputElement;
    expect([volume.min, volume.max, volume.step]).toEqual(['0', '1', '0.01']);
    fireEvent.change(volume, { target: { value: '0.37' } });
    expect(audio.volume).toBeCloseTo(0.37, 5);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(audio.muted).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(audio.play).toHaveBeenCalledTimes(1);
    // Arrows are the shell's on audio (they cycle files).
    expect(key('ArrowRight').defaultPrevented).toBe(false);
  });
});
