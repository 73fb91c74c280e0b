/**
 * The Share dialog's server state: one item's access list and links (owner only), the user
 * search, and each shown user's key fingerprint against the pin (from the crypto worker).
 */
import { queryOptions } from '@tanstack/react-query';
import { cryptoWorker } from '../../../crypto/client.ts';
import { sharingKeys } from '../queries.ts';
import { fetchAccess, fetchLinks, searchUsers, type PublicUser } from './share-api.ts';

/** The item's lists use `sharingKeys.users/links`, which live events invalidate too. */
export const shareKeys = {
  access: (itemId: string) => sharingKeys.users(itemId),
  links: (itemId: string) => sharingKeys.links(itemId),
  search: (term: string) => ['sharing', 'share', 'search', term] as const,
  pin: (user: Pick<PublicUser, 'id' | 'publicKey' | 'signingPublicKey'>) =>
    ['sharing', 'share', 'pin', user.id, user.publicKey, user.signingPublicKey] as const,
};

const noRetryOn4xx = (count: number, error: unknown) =>
  !(error instanceof Error && 'status' in error && typeof error.status === 'number' && error.status < 500) && count < 2;

export function accessQueryOptions(itemId: string) {
  return queryOptions({ queryKey: shareKeys.access(itemId), queryFn: () => fetchAccess(itemId), retry: noRetryOn4xx });
}

export function linksQueryOptions(itemId: string) {
  return queryOptions({ queryKey: shareKeys.links(itemId), queryFn: () => fetchLinks(itemId), retry: noRetryOn4xx });
}

export function searchQueryOptions(term: string) {
  return queryOptions({
    queryKey: shareKeys.search(term),
    queryFn: () => searchUsers(term),
    staleTime: 30_000,
    retry: false,
  });
}

/** How the user's current keys compare with this account's pin (grouped hex fingerprints). */
export function pinQueryOptions(user: Pick<PublicUser, 'id' | 'publicKey' | 'signingPublicKey'>) {
  return queryOptions({
    queryKey: shareKeys.pin(user),
    queryFn: () =>
      cryptoWorker.call('pinStatus', { id: user.id, publicKey: user.publicKey, signingPublicKey: user.signingPublicKey }),
    staleTime: 60_000,
    retry: false,
  });
}
