import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RpcError, cryptoWorker, type KeyHandle } from '../../../crypto/client.ts';
import { type LinkInfo, unlockLink } from './link-api.ts';
import { linkQueryOptions, sharingKeys } from '../queries.ts';

export type LinkAccess =
  | { status: 'loading' }
  | { status: 'password'; submit: (password: string) => Promise<boolean> }
  | { status: 'failed' }
  /** The server named an item this browser already holds under another key: nothing opened. */
  | { status: 'refused' }
  | { status: 'ready'; info: LinkInfo };

/**
 * A share link opened for browsing: its info (asking for the password first when it has one),
 * then its key handed to the crypto worker as the linked item's K in the link's own key ring, so
 * listings and downloads through the link open there (docs/protocol.md "Key rings"). `key`: the
 * handle `useLinkKey` answered for the fragment.
 */
export function useLinkAccess(linkId: string, key: KeyHandle): LinkAccess {
  const queryClient = useQueryClient();
  const link = useQuery(linkQueryOptions(linkId));
  const [keyed, setKeyed] = useState<string | undefined>();
  const [keyFailed, setKeyFailed] = useState<'failed' | 'refused' | undefined>();
  const info = link.data?.status === 'open' ? link.data.info : undefined;

  useEffect(() => {
    if (!info) return;
    let cancelled = false;
    cryptoWorker.call('useLinkKey', key.handle, linkId, info.itemId).then(
      () => !cancelled && setKeyed(`${key.handle}:${info.itemId}`),
      (error) => !cancelled && setKeyFailed(error instanceof RpcError && error.code === 'KEY_CONFLICT' ? 'refused' : 'failed'),
    );
    return () => {
      cancelled = true;
    };
  }, [info, key.handle, linkId]);

  if (keyFailed === 'refused') return { status: 'refused' };
  if (link.isError || keyFailed) return { status: 'failed' };
  if (link.data?.status === 'password') {
    return {
      status: 'password',
      submit: async (password) => {
        const opened = await unlockLink(linkId, password);
        if (!opened) return false;
        queryClient.setQueryData(sharingKeys.link(linkId), { status: 'open', info: opened });
        return true;
      },
    };
  }
  if (info && keyed === `${key.handle}:${info.itemId}`) return { status: 'ready', info };
  return { status: 'loading' };
}
