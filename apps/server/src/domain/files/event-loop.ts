/**
 * Lets requests that arrived meanwhile, and timers, run before going on. bun:sqlite answers
 * synchronously, so a chain of awaits over it alone never returns to the event loop: long work
 * (a purge, a page of 1,000 shares) yields between its steps so that nobody else waits for all
 * of it (docs/protocol.md threat table, "Request amplification").
 */
export function otherWorkFirst(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Background work that nobody waits for (a deleted account's purge) runs at most about half the
 * time: after each step it rests as long as the step took, so other users' requests find the
 * database free more often than not.
 */
export async function restAfter(startedAt: number): Promise<void> {
  const took = performance.now() - startedAt;
  await new Promise((resolve) => setTimeout(resolve, Math.min(took, 50)));
}
