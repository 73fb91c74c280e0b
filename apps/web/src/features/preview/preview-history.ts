/**
 * The previewer's own history entry (docs/web-files.md "Phone and browser conventions"): opening
 * pushes an entry of the same URL marked with a fresh id, so the browser's Back (Android's back
 * gesture too) closes the previewer and stays on the folder. Its X and Escape go back over that
 * entry rather than leave it behind; Forward onto it later does not reopen the previewer.
 */
import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useRef } from 'react';

export interface PreviewHistory {
  /** Before showing the previewer: its entry, unless it has one already (cycling keeps one). */
  push: () => void;
  /** Closes through history, so `onLeft` runs once the entry is gone. */
  leave: () => void;
}

export function usePreviewHistory(onLeft: () => void): PreviewHistory {
  const { history } = useRouter();
  const entry = useRef<string | null>(null);
  const left = useRef(onLeft);
  left.current = onLeft;

  // Any move away from the entry (Back, or a link followed meanwhile) closes the previewer.
  useEffect(
    () =>
      history.subscribe(() => {
        if (entry.current === null || history.location.state.preview === entry.current) return;
        entry.current = null;
        left.current();
      }),
    [history],
  );

  const push = useCallback(() => {
    if (entry.current !== null) return;
    entry.current = crypto.randomUUID();
    history.push(history.location.href, { preview: entry.current });
  }, [history]);

  const leave = useCallback(() => {
    if (entry.current !== null && history.location.state.preview === entry.current) history.back();
    else {
      entry.current = null;
      left.current();
    }
  }, [history]);

  return { push, leave };
}
