import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { reportSessionEnded, signedInAtom } from '../auth/index.ts';
import { startLiveConnection } from './connection.ts';
import { createInvalidator, invalidationsFor } from './invalidations.ts';
import { liveStatusAtom } from './status.ts';

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;
}

/** Mounted once in the root layout: while signed in, keeps the live socket and applies its events. */
export function useLiveUpdates(): void {
  const signedIn = useAtomValue(signedInAtom);
  const queryClient = useQueryClient();
  const setStatus = useSetAtom(liveStatusAtom);

  useEffect(() => {
    if (!signedIn) return;
    const invalidator = createInvalidator(queryClient);
    const connection = startLiveConnection({
      url: socketUrl(),
      onEvent: (event) => invalidator.add(invalidationsFor(event)),
      onCatchUp: (since) => invalidator.catchUp(since),
      onSessionEnded: reportSessionEnded,
      onStatus: setStatus,
    });
    return () => {
      connection.stop();
      invalidator.dispose();
      setStatus('connecting');
    };
  }, [signedIn, queryClient, setStatus]);
}
