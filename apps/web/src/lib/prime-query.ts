/**
 * For a route's loader (docs/web-files.md "Route data"): waits for a query's data, cached or
 * fetched now, so the screen's first paint has it and no spinner flashes. A failure is left for
 * the screen to show in place (a folder refused, a server error), and offline nothing is awaited:
 * the fetch would wait for the network, and the navigation with it.
 */
import { onlineManager, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';

export async function primeQuery<TData, TKey extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<TData, Error, TData, TKey>,
): Promise<void> {
  if (!onlineManager.isOnline()) return;
  await queryClient.ensureQueryData(options).catch(() => undefined);
}
