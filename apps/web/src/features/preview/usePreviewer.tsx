/**
 * What a file browser route composes: `open(item)` shows the previewer on a file of the list on
 * screen (the folder's items in the order shown), and `element` is the previewer to render.
 * Previous/next move over that list, skipping folders. Every item is reached in `scope`. The
 * browser's Back closes it (preview-history.ts).
 */
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { BrowseScope } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import { cycleIndex } from './cycle.ts';
import { usePreviewHistory } from './preview-history.ts';
import { Previewer } from './Previewer.tsx';
import type { PreviewItem } from './source.ts';

export interface PreviewerHandle {
  open: (item: PreviewItem, options?: { fromSearch?: boolean }) => void;
  close: () => void;
  element: ReactNode;
}

export function usePreviewer(items: readonly ItemView[], scope: BrowseScope): PreviewerHandle {
  const [open, setOpen] = useState<{ item: PreviewItem; fromSearch: boolean } | null>(null);
  // The item as last listed: a file renamed while shown keeps its new name; one gone stays shown.
  const latest = useRef<PreviewItem | null>(null);
  const index = open ? items.findIndex((item) => item.id === open.item.id) : -1;
  const item = open ? (index >= 0 ? items[index]! : latest.current?.id === open.item.id ? latest.current : open.item) : null;
  latest.current = item;

  // Closing goes through history: the previewer has its own entry, which Back leaves.
  const history = usePreviewHistory(useCallback(() => setOpen(null), []));
  const close = history.leave;
  const onCycle = useCallback(
    (step: 1 | -1) => {
      if (index < 0) return;
      const next = cycleIndex(items, index, step);
      if (next !== undefined) setOpen((prev) => ({ item: items[next]!, fromSearch: prev?.fromSearch ?? false }));
    },
    [items, index],
  );
  const source = useMemo(() => (item ? { kind: 'item' as const, item, scope } : null), [item, scope]);
  const files = useMemo(() => items.filter((i) => !i.isDirectory).length, [items]);

  return {
    open: useCallback(
      (next: PreviewItem, options?: { fromSearch?: boolean }) => {
        if (next.isDirectory) return;
        history.push();
        setOpen({ item: next, fromSearch: options?.fromSearch ?? false });
      },
      [history.push],
    ),
    close,
    element: source ? (
      <Previewer
        source={source}
        onClose={close}
        index={index >= 0 ? index : undefined}
        count={files}
        fromSearch={open?.fromSearch ?? false}
        onCycle={onCycle}
      />
    ) : null,
  };
}
