import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { reportSessionEnded, sessionStartsAtom, sessionsStartedHere, signedInAtom } from '../auth/index.ts';
import { changeKeys, filesKeys } from '../items/index.ts';
import { applyTreeChange, recheckSearchIndex } from '../search/index.ts';
import { startLiveConnection, type LiveStatus } from './connection.ts';
import { createInvalidator, invalidationsFor } from './invalidations.ts';
import { liveStatusAtom } from './status.ts';

function socketUrl(linkId?: string): string {
  const query = linkId ? `?${new URLSearchParams({ linkId })}` : '';
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws${query}`;
}

const BULK_CHANGES = [changeKeys.moveMany, changeKeys.deleteMany];

/** Mounted once in the root layout: while signed in, keeps the live socket and applies its events. */
export function useLiveUpdates(): void {
  const signedIn = useAtomValue(signedInAtom);
  // A sign-in in this tab starts a socket of its own: the one before belongs to the session the
  // sign-in replaced, whose end (4401) is no news about the new one.
  const starts = useAtomValue(sessionStartsAtom);
  const queryClient = useQueryClient();
  const setStatus = useSetAtom(liveStatusAtom);

  useEffect(() => {
    if (!signedIn) return;
    // A selection moved or deleted in several batch calls: refreshing the listing it is emptying
    // between calls (a fetch, thousands of names opened, a render) held the next call up for over
    // a second (bench/batch); the change refreshes what it touched when it ends.
    const bulkChange = () => BULK_CHANGES.some((mutationKey) => queryClient.isMutating({ mutationKey }) > 0);
    const invalidator = createInvalidator(queryClient, Date.now, bulkChange);
    const connection = startLiveConnection({
      url: socketUrl(),
      onEvent: (event) => {
        // The search index follows its own events, in version order (features/search).
        if (event.kind === 'tree.changed' && event.treeVersion !== undefined && event.treeSince !== undefined)
          applyTreeChange({ treeVersion: event.treeVersion, treeSince: event.treeSince, parentIds: event.parentIds });
        invalidator.add(invalidationsFor(event));
      },
      onCatchUp: (since) => {
        recheckSearchIndex();
        invalidator.catchUp(since);
      },
      onSessionEnded: () => {
        if (sessionsStartedHere() === starts) reportSessionEnded();
      },
      onStatus: setStatus,
    });
    return () => {
      connection.stop();
      invalidator.dispose();
      setStatus('connecting');
    };
  }, [signedIn, starts, queryClient, setStatus]);
}

/**
 * A link visitor's socket (`/api/ws?linkId=`): every item event of the linked subtree refreshes
 * the link's listings. `onClosed` hears 4404 (gone) and 4403 (password needed again); the
 * answer is this socket's status, so the page polls while it is not online.
 */
export function useLinkLiveUpdates(linkId: string, onClosed: (code: number) => void): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const closed = useRef(onClosed);
  closed.current = onClosed;
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: filesKeys.linkAll(linkId) });
    const connection = startLiveConnection({
      url: socketUrl(linkId),
      onEvent: refresh,
      onCatchUp: refresh,
      onSessionEnded: () => {},
      onLinkClosed: (code) => closed.current(code),
      onStatus: setStatus,
    });
    return () => connection.stop();
  }, [linkId, queryClient]);
  return status;
}
