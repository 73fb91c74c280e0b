/**
 * Runs `act` on every item, at most `limit` at once, and says which went through (in the items'
 * order). A failure never stops the others: a bulk change reports them all at the end.
 */
export async function settleEach<T>(items: readonly T[], limit: number, act: (item: T) => Promise<unknown>): Promise<boolean[]> {
  const ok = new Array<boolean>(items.length).fill(false);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      ok[i] = await act(items[i]!).then(
        () => true,
        () => false,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return ok;
}
