/**
 * K of an item this tab has not listed yet (docs/protocol.md "Key rings"), opened on demand: the
 * item and the folders above it, as `scope` sees them, each unwrapped from its parent as a listing
 * would. What a search index result needs before it is opened, and an owner sharing from a page
 * that never listed the item.
 */
import { answered } from '../lib/api-client.ts';
import { type BrowseScope, scopeQuery } from '../model/browse-scope.ts';
import type { ServerItem } from '../model/items.ts';
import { api } from './api.ts';
import type { CodedError } from './coded-error.ts';
import { openItems } from './items.ts';
import { itemKey } from './key-rings.ts';

export async function keyOnDemand(
  scope: BrowseScope,
  itemId: string,
  error: (code: string, message: string) => CodedError,
): Promise<Uint8Array> {
  try {
    return itemKey(scope, itemId);
  } catch {
    const { data, status } = await answered(
      api.api.file.get({ query: { id: itemId, depth: 1, limit: 1, offset: 0, includeAncestors: true, ...scopeQuery(scope) } }),
    );
    if (!data) throw error(`HTTP_${status}`, `Opening the item failed (${status})`);
    const listing = data as Exclude<typeof data, Response> & { ancestors?: ServerItem[] };
    if (listing.root) await openItems(scope, [...(listing.ancestors ?? []), listing.root]);
    return itemKey(scope, itemId);
  }
}
