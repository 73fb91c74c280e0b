/**
 * Runs `act` on every item, at most `limit` at once, and says which went through (in the items'
 * order). A failure never stops the others: a bulk change reports them all at the end.
 */
export async function settleEach<T>(items: readonly T[], limit: number, act: (item: T) => Promise<unknown>): Promise<boolean[]> {
  const ok = new Array<boolean>(items.length).fill(false);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      // Through a promise, so an `act` that throws before returning one fails only its item.
      const item = items[i]!;
      ok[i] = await Promise.resolve()
        .then(() => act(item))
        .then(
          () => true,
          () => false,
        );
    }
  };
  const workers = Math.min(items.length, Math.max(1, Math.floor(limit) || 1));
  await Promise.all(Array.from({ length: workers }, worker));
  return ok;
}
