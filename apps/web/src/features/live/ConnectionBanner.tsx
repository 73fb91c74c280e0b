import { useSyncExternalStore } from 'react';
import { onlineManager } from '@tanstack/react-query';
import './live.css';

export const OFFLINE_BANNER_TEXT = 'You are offline. Uploads, downloads and changes wait until the connection is back.';

/** Whether the browser has a network connection, as TanStack Query's onlineManager (which the listings wait on) has it. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => onlineManager.subscribe(onChange),
    () => onlineManager.isOnline(),
    () => true,
  );
}

/**
 * A banner under the navbar while the browser is offline, on every screen (docs/web-files.md
 * "Errors that say what happened"): the quiet live-status pill alone went unnoticed.
 */
export function ConnectionBanner() {
  const online = useOnline();
  return (
    <div className="connection-banner" role="status">
      {!online && (
        <p className="connection-banner__text">
          <span className="live-status__dot" aria-hidden="true" />
          {OFFLINE_BANNER_TEXT}
        </p>
      )}
    </div>
  );
}
