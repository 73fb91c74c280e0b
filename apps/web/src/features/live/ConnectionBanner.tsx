import { useSyncExternalStore } from 'react';
import './live.css';

export const OFFLINE_BANNER_TEXT = 'You are offline. Uploads, downloads and changes wait until the connection is back.';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser says it has a network connection, kept current. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
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
