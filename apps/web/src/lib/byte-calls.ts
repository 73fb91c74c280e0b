/**
 * The calls that carry bytes rather than JSON, so they bypass the Eden client (api-client.ts):
 * file data (whole or a range), upload parts, and a listing whose answer goes unparsed to the
 * crypto worker (a folder of 10,000 items is megabytes of JSON the UI thread should not parse).
 * Typed from the same `App` routes; each answers the raw Response.
 */
import { type BrowseScope, scopeQuery } from '../model/browse-scope.ts';
import type { ApiClient, ApiFetcher } from './api-client.ts';

/** GET /api/file's query, as the server declares it. */
export type ListingQuery = NonNullable<NonNullable<Parameters<ApiClient['api']['file']['get']>[0]>['query']>;

/** GET /api/file/tree's query, as the server declares it. */
export type TreeQuery = NonNullable<NonNullable<Parameters<ApiClient['api']['file']['tree']['get']>[0]>['query']>;

/** fetch with the session cookie (same origin), for the workers. */
export const sameOriginFetch: ApiFetcher = (input, init) => fetch(input, { credentials: 'same-origin', ...init });

export interface ByteCalls {
  /** GET /api/file: the listing's bytes, unparsed. */
  listing(query: ListingQuery): Promise<Response>;
  /** GET /api/file/tree: a page of the own tree, unparsed (Eden's date-reviving parse costs more than the fetch). */
  tree(query: TreeQuery): Promise<Response>;
  /** GET /api/shared: what was shared with the caller, unparsed (the crypto worker opens it). */
  shared(query: { limit: number; offset: number }): Promise<Response>;
  /**
   * GET /api/file/data/{id} in `scope`: the ciphertext, or its bytes [start, end) with a Range
   * header; with `versionId`, that earlier version's (GET /api/file/{id}/versions/{versionId}/data).
   */
  fileData(
    scope: BrowseScope,
    id: string,
    options?: { range?: { start: number; end: number }; cache?: RequestCache; signal?: AbortSignal; versionId?: string },
  ): Promise<Response>;
  /** PUT /api/upload/{uploadId}/part/{n} in `scope`: one part's ciphertext. */
  putPart(
    scope: BrowseScope,
    uploadId: string,
    n: number,
    body: Blob | Uint8Array<ArrayBuffer>,
    signal?: AbortSignal,
  ): Promise<Response>;
}

/** `?linkId=…` for a link's calls, '' for the others. */
function linkQueryString(scope: BrowseScope): string {
  const query = new URLSearchParams(scopeQuery(scope)).toString();
  return query ? `?${query}` : '';
}

export function byteCalls(fetcher: ApiFetcher): ByteCalls {
  return {
    listing(query) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
      return fetcher(`/api/file?${params}`);
    },
    tree({ after, limit }) {
      const params = new URLSearchParams(after === undefined ? {} : { after });
      if (limit !== undefined) params.set('limit', String(limit));
      return fetcher(`/api/file/tree?${params}`);
    },
    shared({ limit, offset }) {
      return fetcher(`/api/shared?${new URLSearchParams({ limit: String(limit), offset: String(offset) })}`);
    },
    fileData(scope, id, { range, cache, signal, versionId } = {}) {
      const query = linkQueryString(scope);
      const path = versionId
        ? `/api/file/${encodeURIComponent(id)}/versions/${encodeURIComponent(versionId)}/data`
        : `/api/file/data/${encodeURIComponent(id)}`;
      return fetcher(`${path}${query}`, {
        ...(range ? { headers: { range: `bytes=${range.start}-${range.end - 1}` } } : {}),
        ...(cache ? { cache } : {}),
        ...(signal ? { signal } : {}),
      });
    },
    putPart(scope, uploadId, n, body, signal) {
      const query = linkQueryString(scope);
      return fetcher(`/api/upload/${uploadId}/part/${n}${query}`, {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/octet-stream' },
        ...(signal ? { signal } : {}),
      });
    },
  };
}
