import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AfterPause } from './after-pause.ts';

describe('AfterPause', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const started = (pause: AfterPause) => {
    let yes = false;
    void pause.done.then(() => {
      yes = true;
    });
    return async () => {
      await vi.advanceTimersByTimeAsync(0);
      return yes;
    };
  };

  it('waits for the first touch, then for a quiet moment after the last one', async () => {
    const pause = new AfterPause(300, 2000);
    const isStarted = started(pause);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await isStarted()).toBe(false);
    pause.touch();
    await vi.advanceTimersByTimeAsync(200);
    pause.touch();
    await vi.advanceTimersByTimeAsync(299);
    expect(await isStarted()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await isStarted()).toBe(true);
  });

  it('starts at the latest atMostMs after the first touch, however often it is touched', async () => {
    const pause = new AfterPause(300, 1000);
    const isStarted = started(pause);
    for (let at = 0; at < 900; at += 100) {
      pause.touch();
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(await isStarted()).toBe(false);
    pause.touch();
    await vi.advanceTimersByTimeAsync(100);
    expect(await isStarted()).toBe(true);
  });

  it('starts at once on now(), touched or not, and touches after it change nothing', async () => {
    const pause = new AfterPause(300, 2000);
    const isStarted = started(pause);
    pause.now();
    expect(await isStarted()).toBe(true);
    pause.touch();
    pause.now();
    expect(vi.getTimerCount()).toBe(0);
  });
});
