/**
 * The listing request the crypto worker makes itself (downloads in transfers/download.ts, thumbnails in
 * thumbnails.ts): GET /api/file with the page's cookie, outside the page's query cache.
 */
import type { ServerItem } from '../model/items.ts';
import type { CodedError } from './coded-error.ts';

export interface Listing {
  root: ServerItem | null;
  files: ServerItem[];
}

/**
 * Item `id` and its descendants down to `depth`, `limit` of them from `offset`. A non-2xx answer
 * throws `error('HTTP_<status>', …)`, so each caller keeps its own error type.
 */
export async function getListing(
  id: string,
  depth: number,
  limit: number,
  offset: number,
  error: (code: string, message: string) => CodedError,
): Promise<Listing> {
  const query = new URLSearchParams({ id, depth: String(depth), limit: String(limit), offset: String(offset) });
  const response = await fetch(`/api/file?${query}`, { credentials: 'same-origin' });
  if (!response.ok) throw error(`HTTP_${response.status}`, `Listing failed (${response.status})`);
  return (await response.json()) as Listing;
}
