import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { signedInAtom } from '../auth/index.ts';
import { useLiveStatus } from './status.ts';
import './live.css';

/** A reconnect that succeeds within this is not worth showing. */
export const OFFLINE_NOTICE_DELAY_MS = 2_000;

/**
 * Quiet by design: nothing while live updates flow; a small "Offline" pill when the socket has
 * been down a moment (the lists still refresh every 5 s meanwhile).
 */
export function LiveStatusIndicator() {
  const signedIn = useAtomValue(signedInAtom);
  const status = useLiveStatus();
  const down = signedIn && status === 'offline';
  const [shown, setShown] = useState(false);

  useEffect(() => {
    if (!down) return setShown(false);
    const timer = setTimeout(() => setShown(true), OFFLINE_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [down]);

  return (
    <span role="status" className="live-status" data-live={status}>
      {shown && (
        <span
          className="live-status__pill"
          title="Live updates are paused. Reconnecting; the file list refreshes every 5 seconds meanwhile."
        >
          <span className="live-status__dot" aria-hidden="true" />
          Offline
        </span>
      )}
    </span>
  );
}
