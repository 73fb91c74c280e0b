/**
 * The listing request the crypto worker makes itself (downloads in transfers/download.ts, thumbnails in
 * thumbnails.ts): GET /api/file with the page's cookie, outside the page's query cache.
 */
import { answered } from '../lib/api-client.ts';
import { type BrowseScope, scopeQuery } from '../model/browse-scope.ts';
import type { ServerItem } from '../model/items.ts';
import { api } from './api.ts';
import type { CodedError } from './coded-error.ts';

export interface Listing {
  root: ServerItem | null;
  files: ServerItem[];
}

/**
 * Item `id` and its descendants down to `depth`, `limit` of them from `offset`. A non-2xx answer
 * throws `error('HTTP_<status>', …)`, so each caller keeps its own error type. Asked in `scope`
 * (a link's carries its `?linkId=`).
 */
export async function getListing(
  scope: BrowseScope,
  id: string,
  depth: number,
  limit: number,
  offset: number,
  error: (code: string, message: string) => CodedError,
): Promise<Listing> {
  const { data, status } = await answered(api.api.file.get({ query: { id, depth, limit, offset, ...scopeQuery(scope) } }));
  if (!data) throw error(`HTTP_${status}`, `Listing failed (${status})`);
  // The route sends a kept listing as an encoded Response (its type joins the union); Eden
  // parses that JSON like any other answer.
  return data as Exclude<typeof data, Response>;
}
