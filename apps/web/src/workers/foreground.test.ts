// @vitest-environment node
/**
 * Background work gives way (foreground.ts): the search index's build waits between slices while a
 * call the page waits on runs, goes on once it ends, is never held back by background calls, and
 * waits at most MAX_YIELD_MS for a call that stays open.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countCall, foregroundIdle, MAX_YIELD_MS } from './foreground.ts';

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Whether `promise` has settled after the microtasks queued so far (and a macrotask turn). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('foreground calls hold background work back', () => {
  it('answers at once when nothing runs', async () => {
    expect(await settled(foregroundIdle())).toBe(true);
  });

  it('waits while a page call runs, and goes on when the last one ends', async () => {
    const first = gate();
    const second = gate();
    const a = countCall('verifyGrants', () => first.opened);
    const b = countCall('openListing', () => second.opened);
    const idle = foregroundIdle();
    expect(await settled(idle)).toBe(false);
    first.open();
    await a;
    expect(await settled(idle)).toBe(false);
    second.open();
    await b;
    expect(await settled(idle)).toBe(true);
  });

  it('a failing call ends too', async () => {
    const failing = countCall('openListing', async () => {
      throw new Error('no');
    });
    await expect(failing).rejects.toThrow('no');
    expect(await settled(foregroundIdle())).toBe(true);
  });

  it('background calls are not waited for', async () => {
    const held = gate();
    const build = countCall('searchIndexBuild', () => held.opened);
    expect(await settled(foregroundIdle())).toBe(true);
    held.open();
    await build;
  });

  it('waits at most MAX_YIELD_MS for a call that stays open', async () => {
    vi.useFakeTimers();
    const held = gate();
    const call = countCall('gatherFolder', () => held.opened);
    let done = false;
    const idle = foregroundIdle().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(MAX_YIELD_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await idle;
    expect(done).toBe(true);
    held.open();
    await call;
  });
});
