import { useEffect, useState } from 'react';
import { cryptoWorker, hasCryptoCode, type KeyHandle } from '../../../crypto/client.ts';

export type LinkKeyState =
  | { status: 'checking' }
  | { status: 'ready'; key: KeyHandle }
  | { status: 'invalid' }
  | { status: 'failed'; message: string };

/**
 * Hands a share link's fragment to the crypto worker, which keeps the key and
 * returns a handle. The key is dropped from the worker when the page leaves.
 */
export function useLinkKey(fragment: string): LinkKeyState {
  const [state, setState] = useState<LinkKeyState>({ status: 'checking' });

  useEffect(() => {
    let cancelled = false;
    let held: KeyHandle | undefined;
    setState({ status: 'checking' });
    if (!fragment) {
      setState({ status: 'invalid' });
      return;
    }
    cryptoWorker.call('openLinkKey', fragment).then(
      (key) => {
        held = key;
        if (cancelled) void cryptoWorker.call('forgetKey', key.handle);
        else setState({ status: 'ready', key });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (hasCryptoCode(error, 'BAD_LINK_KEY')) setState({ status: 'invalid' });
        else setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      cancelled = true;
      if (held) void cryptoWorker.call('forgetKey', held.handle);
    };
  }, [fragment]);

  return state;
}
